// The push sender's two checks before each send (lib/push/deliver.ts): the endpoint is on a browser push service
// (the same rule as SQL's private.is_push_service_endpoint), and every address its name resolves to is public.
import { describe, expect, it } from "vitest";
import { isPushServiceEndpoint } from "@/lib/notifications/push-subscription";
import { checkedAddress, isPublicAddress, type PushNetwork } from "@/lib/push/push-network";

describe("isPublicAddress", () => {
  it.each([
    ["142.250.180.10", true],
    ["17.253.144.10", true],
    ["2a00:1450:4009:81f::200a", true],
    ["2620:149:a44::1", true],
    ["127.0.0.1", false],
    ["127.1.2.3", false],
    ["0.0.0.0", false],
    ["10.1.2.3", false],
    ["100.64.0.1", false],
    ["169.254.169.254", false],
    ["172.16.0.1", false],
    ["172.31.255.255", false],
    ["192.168.0.1", false],
    ["192.0.2.1", false],
    ["198.18.0.1", false],
    ["224.0.0.1", false],
    ["255.255.255.255", false],
    ["::", false],
    ["::1", false],
    ["::ffff:127.0.0.1", false],
    ["::ffff:8.8.8.8", false],
    ["64:ff9b::a00:1", false],
    ["fe80::1", false],
    ["fc00::1", false],
    ["fd12:3456::1", false],
    ["ff02::1", false],
    ["2001:db8::1", false],
    ["2001::1", false],
    ["2002:7f00:1::1", false],
    ["localhost", false],
    ["", false],
  ])("%s is public: %s", (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe("isPushServiceEndpoint", () => {
  it.each([
    ["https://fcm.googleapis.com/fcm/send/abc:APA91b", true],
    ["https://updates.push.services.mozilla.com/wpush/v2/gAAAAB", true],
    ["https://web.push.apple.com/QGx1", true],
    ["https://wns2-by3p.notify.windows.com/w/?token=BQY%2b", true],
    ["https://push.apple.com/x", false],
    ["https://fcm.googleapis.com:8443/fcm/send/x", false],
    ["https://fcm.googleapis.com.evil.example/x", false],
    ["https://fcm.googleapis.com@127.0.0.1/x", false],
    ["https://fcm.googleapis.com\\@127.0.0.1/x", false],
    ["http://fcm.googleapis.com/x", false],
    ["https://127.0.0.1/x", false],
  ])("%s: %s", (endpoint, expected) => {
    expect(isPushServiceEndpoint(endpoint)).toBe(expected);
  });
});

describe("checkedAddress", () => {
  const answering = (answer: string[] | Error): PushNetwork => ({
    resolve: async () => {
      if (answer instanceof Error) throw answer;
      return answer;
    },
    agentTo: () => {
      throw new Error("not connecting in this test");
    },
  });

  it("answers the first address when every one is public, else why not", async () => {
    expect(await checkedAddress("fcm.googleapis.com", answering(["142.250.180.10", "2a00:1450::1"]))).toEqual({
      address: "142.250.180.10",
    });
    expect(await checkedAddress("fcm.googleapis.com", answering(["142.250.180.10", "10.0.0.1"]))).toEqual({
      refused: "resolves to a non-public address (10.0.0.1)",
    });
    expect(await checkedAddress("fcm.googleapis.com", answering([]))).toEqual({ refused: "does not resolve" });
    expect(await checkedAddress("fcm.googleapis.com", answering(new Error("ENOTFOUND")))).toEqual({
      refused: "does not resolve",
    });
  });
});
