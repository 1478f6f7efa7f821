// Web push end to end against the real embedded backend: a player's browser subscription stored through
// supabase-js, a notification written by SQL (a top-up), and the cron's delivery (lib/push/deliver.ts, web-push's
// sendNotification) posting to a push-service stand-in over HTTPS. The stand-in checks what a real push service
// and browser would: the VAPID JWT (RFC 8292) verifies with the sender's public key, and the body decrypts as an
// RFC 8291 aes128gcm message with the subscription's own private key, done here with node's crypto alone, not the
// library. A 410 answer removes the subscription. The stand-in sits on a small stand-in internet: its DNS answers
// for the push services' names, and connections to the public address it gives reach the stand-in; the sender
// must refuse an endpoint that is not a push service's or whose name resolves inside, and connect only to the
// address it checked.
import { createECDH, createPublicKey, hkdfSync, createDecipheriv, randomBytes, verify } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Agent, createServer, request, type Server } from "node:https";
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { connect } from "node:tls";
import { generateVAPIDKeys } from "web-push";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { deliverQueuedPush } from "@/lib/push/deliver";
import { pinnedAgent, type PushNetwork } from "@/lib/push/push-network";
import { adminClient, PLAYER_ID, signIn, startTestServer, type Client, type TestServer } from "./helpers";

type Received = { path: string; headers: Record<string, string | string[] | undefined>; body: Buffer };

/** Where the stand-in DNS puts the push service: a public address (Google's), never dialled for real. */
const PUSH_SERVICE_ADDRESS = "142.250.180.10";
const PUSH_SERVICE_ORIGIN = "https://fcm.googleapis.com";

let server: TestServer;
let pushService: Server;
let pushServicePort: number;
let certificate: Buffer;
/** A listener inside (as the probe's on 127.0.0.1:9443): nothing may ever connect to it. */
let inside: TcpServer;
let insideConnections = 0;
const received: Received[] = [];
/** Paths the stand-in answers 410 Gone for: subscriptions the browser dropped. */
const gone = new Set<string>();
const vapid = { ...generateVAPIDKeys(), subject: "mailto:push-test@labcash.test" };

/** What the stand-in DNS answers for each name, in turn (the last answer repeats); unknown names do not resolve. */
const dns = new Map<string, string[][]>();
/** Every name looked up and every address the sender asked to connect to, in order. */
const lookedUp: string[] = [];
const dialled: string[] = [];

/** The stand-in internet: connections to the push service's public address reach the stand-in, nothing else does. */
const standInInternet: PushNetwork = {
  async resolve(hostname) {
    lookedUp.push(hostname);
    const answers = dns.get(hostname);
    if (!answers) throw new Error(`getaddrinfo ENOTFOUND ${hostname}`);
    return answers.length > 1 ? answers.shift()! : answers[0];
  },
  agentTo(address) {
    dialled.push(address);
    const agent = new Agent({ ca: certificate });
    agent.createConnection = (options) => {
      if (address !== PUSH_SERVICE_ADDRESS) throw new Error(`no route to ${address}`);
      // The certificate is still checked against the endpoint's own name.
      const servername = String(options.servername ?? options.host);
      return connect({ host: "127.0.0.1", port: pushServicePort, servername, ca: certificate });
    };
    return agent;
  },
};

beforeAll(async () => {
  server = await startTestServer();
  // A push service speaks HTTPS only (web-push uses node:https): a throwaway certificate for its name.
  const dir = mkdtempSync(path.join(os.tmpdir(), "labcash-push-"));
  execFileSync("openssl", [
    ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1"],
    ...["-subj", "/CN=fcm.googleapis.com", "-addext", "subjectAltName=DNS:fcm.googleapis.com"],
    ...["-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem")],
  ]);
  const key = readFileSync(path.join(dir, "key.pem"));
  certificate = readFileSync(path.join(dir, "cert.pem"));
  rmSync(dir, { recursive: true });
  pushService = createServer({ key, cert: certificate }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(gone.has(req.url ?? "") ? 410 : 201).end();
    });
  });
  await new Promise<void>((resolve) => pushService.listen(0, "127.0.0.1", resolve));
  pushServicePort = (pushService.address() as AddressInfo).port;
  inside = createTcpServer((socket) => {
    insideConnections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => inside.listen(0, "127.0.0.1", resolve));
  // What the seed's own events queued goes first (to no one: nobody has subscribed yet).
  await deliverQueuedPush(adminClient(server), vapid, { network: standInInternet });
});
beforeEach(() => {
  dns.clear();
  dns.set("fcm.googleapis.com", [[PUSH_SERVICE_ADDRESS]]);
  lookedUp.length = 0;
  dialled.length = 0;
});
afterAll(async () => {
  await new Promise((resolve) => inside?.close(resolve));
  await new Promise((resolve) => pushService?.close(resolve));
  await server?.stop();
});

/** A browser's subscription: its own P-256 key pair and 16-byte auth secret, as PushManager.subscribe makes. */
function browserSubscription(name: string) {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    ecdh,
    auth,
    path: `/fcm/send/${name}`,
    endpoint: `${PUSH_SERVICE_ORIGIN}/fcm/send/${name}`,
    keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") },
  };
}

async function subscribe(player: Client, sub: ReturnType<typeof browserSubscription>) {
  const saved = await player.rpc("save_push_subscription", {
    p_endpoint: sub.endpoint,
    p_p256dh: sub.keys.p256dh,
    p_auth: sub.keys.auth,
  });
  expect(saved.error).toBeNull();
  expect((await player.rpc("set_my_push_kinds", { p_kinds: ["credit"] })).error).toBeNull();
}

async function topUp() {
  const { error } = await adminClient(server).rpc("add_credits", {
    user_id: PLAYER_ID,
    amount: 5,
    transaction_amount: 5,
  });
  expect(error).toBeNull();
}

/** RFC 8291 §3.4 and RFC 8188: the user agent's side of aes128gcm, one record. */
function decrypt(body: Buffer, sub: ReturnType<typeof browserSubscription>): string {
  const salt = body.subarray(0, 16);
  const idLength = body[20];
  const senderKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const hkdf = (ikm: Buffer, salt: Buffer, info: Buffer, length: number) =>
    Buffer.from(hkdfSync("sha256", ikm, salt, info, length));
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), sub.ecdh.getPublicKey(), senderKey]);
  const ikm = hkdf(sub.ecdh.computeSecret(senderKey), sub.auth, keyInfo, 32);
  const cek = hkdf(ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16);
  const nonce = hkdf(ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12);
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(-16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, -16)), decipher.final()]);
  // The last record ends with the delimiter 0x02 and any zero padding.
  const end = padded.lastIndexOf(2);
  expect(padded.subarray(end + 1).every((b) => b === 0)).toBe(true);
  return padded.subarray(0, end).toString("utf8");
}

/** RFC 8292: `vapid t=<ES256 JWT>, k=<the sender's public key>`; answers the JWT's claims once it verifies. */
function vapidClaims(authorization: string): Record<string, unknown> {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization);
  expect(match).not.toBeNull();
  const [, jwt, k] = match!;
  expect(k).toBe(vapid.publicKey);
  const point = Buffer.from(k, "base64url");
  const key = createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: point.subarray(1, 33).toString("base64url"),
      y: point.subarray(33).toString("base64url"),
    },
    format: "jwk",
  });
  const [header, payload, signature] = jwt.split(".");
  expect(JSON.parse(Buffer.from(header, "base64url").toString())).toMatchObject({ alg: "ES256" });
  const signed = verify(
    "sha256",
    Buffer.from(`${header}.${payload}`),
    { key, dsaEncoding: "ieee-p1363" },
    Buffer.from(signature, "base64url"),
  );
  expect(signed).toBe(true);
  return JSON.parse(Buffer.from(payload, "base64url").toString());
}

describe("web push delivery", () => {
  it("sends the notification encrypted for the browser and signed with the VAPID key", async () => {
    const { client: player } = await signIn(server, "player@labcash.test");
    const sub = browserSubscription("player-browser");
    await subscribe(player, sub);
    await topUp();

    const report = await deliverQueuedPush(adminClient(server), vapid, { network: standInInternet });
    expect(report).toMatchObject({ sent: 1, removed: 0, failed: 0, refused: 0 });
    expect(dialled).toEqual([PUSH_SERVICE_ADDRESS]);
    const [request] = received.filter((r) => r.path === sub.path);
    expect(request.headers["content-encoding"]).toBe("aes128gcm");
    expect(request.headers.ttl).toBe(String(24 * 60 * 60));
    const claims = vapidClaims(String(request.headers.authorization));
    expect(claims).toMatchObject({ aud: PUSH_SERVICE_ORIGIN, sub: vapid.subject });
    expect(Number(claims.exp) * 1000).toBeGreaterThan(Date.now());
    expect(JSON.parse(decrypt(request.body, sub))).toEqual({
      title: "Top-up credited",
      body: expect.stringMatching(/^£5\.00 added to your credit; your balance is £[\d,.]+\.$/),
      url: "/account/credits",
    });
    // Each notification is pushed once.
    expect(await deliverQueuedPush(adminClient(server), vapid, { network: standInInternet })).toMatchObject({
      claimed: 0,
      sent: 0,
    });
  });

  it("removes a subscription the push service answers 410 Gone for", async () => {
    const { client: player } = await signIn(server, "player@labcash.test");
    const sub = browserSubscription("dropped-browser");
    await subscribe(player, sub);
    gone.add(sub.path);
    await topUp();

    const report = await deliverQueuedPush(adminClient(server), vapid, { network: standInInternet });
    expect(report.removed).toBe(1);
    const { data } = await player.rpc("get_my_push_settings");
    expect((data as { endpoints: string[] }).endpoints).not.toContain(sub.endpoint);
  });

  it("refuses to store an endpoint that is not a push service's, and keeps at most 10 browsers per player", async () => {
    const { client: player } = await signIn(server, "player@labcash.test");
    await forgetEveryBrowser(player);
    const keys = browserSubscription("keys-only").keys;
    const insidePort = (inside.address() as AddressInfo).port;
    for (const endpoint of [
      `https://127.0.0.1:${insidePort}/push`,
      "https://localhost/push",
      "https://[::1]/push",
      "https://169.254.169.254/latest/meta-data",
      "https://push.example/x",
      "http://fcm.googleapis.com/fcm/send/x",
      `https://fcm.googleapis.com:${insidePort}/fcm/send/x`,
      "https://fcm.googleapis.com@127.0.0.1/fcm/send/x",
      "https://fcm.googleapis.com.evil.example/fcm/send/x",
      "https://notify.windows.com.evil.example/w",
    ]) {
      const { error } = await player.rpc("save_push_subscription", {
        p_endpoint: endpoint,
        p_p256dh: keys.p256dh,
        p_auth: keys.auth,
      });
      expect(error, endpoint).toMatchObject({
        code: "22023",
        message: "Push works only through your browser's own push service",
      });
    }
    // Each real service's form is taken.
    const services = [
      "https://fcm.googleapis.com/fcm/send/abc:APA91b-x_y",
      "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABm",
      "https://web.push.apple.com/QGx1-Qe_n",
      "https://wns2-by3p.notify.windows.com/w/?token=BQYAAAD%2b0a%3d",
    ];
    for (const endpoint of services)
      expect((await player.rpc("save_push_subscription", { p_endpoint: endpoint, ...rpcKeys(keys) })).error).toBeNull();
    for (let n = 0; n < 8; n++) {
      const { error } = await player.rpc("save_push_subscription", {
        p_endpoint: `${PUSH_SERVICE_ORIGIN}/fcm/send/many-${n}`,
        ...rpcKeys(keys),
      });
      expect(error).toBeNull();
    }
    // The 11th and 12th replaced the two saved longest ago.
    expect((await endpointsOf(player)).sort()).toEqual(
      [
        ...services.slice(2),
        ...Array.from({ length: 8 }, (_, n) => `${PUSH_SERVICE_ORIGIN}/fcm/send/many-${n}`),
      ].sort(),
    );
    expect(insideConnections).toBe(0);
  });

  it("never connects inside, even for a push service's name that resolves there, and connects only to the address it checked", async () => {
    const { client: player } = await signIn(server, "player@labcash.test");
    await forgetEveryBrowser(player);
    const sub = browserSubscription("rebound");
    await subscribe(player, sub);
    const before = received.length;

    // The name answers an inside address, alone or among public ones, in any spelling.
    for (const answer of [
      ["127.0.0.1"],
      [PUSH_SERVICE_ADDRESS, "10.0.0.7"],
      ["::1"],
      ["::ffff:127.0.0.1"],
      ["169.254.169.254"],
      ["fe80::1"],
      ["fd00::1"],
      ["192.168.1.1"],
    ]) {
      dns.set("fcm.googleapis.com", [answer]);
      await topUp();
      const report = await deliverQueuedPush(adminClient(server), vapid, { network: standInInternet });
      expect(report, answer.join(",")).toMatchObject({ claimed: 1, sent: 0, refused: 1 });
    }
    expect(dialled).toEqual([]);
    expect(received.length).toBe(before);
    expect(insideConnections).toBe(0);

    // DNS rebinding: a public answer to the check, then 127.0.0.1 to anyone asking again. The name is resolved
    // once, and the connection goes to the address that was checked.
    dns.set("fcm.googleapis.com", [[PUSH_SERVICE_ADDRESS], ["127.0.0.1"]]);
    lookedUp.length = 0;
    await topUp();
    expect(await deliverQueuedPush(adminClient(server), vapid, { network: standInInternet })).toMatchObject({
      sent: 1,
      refused: 0,
    });
    expect(lookedUp).toEqual(["fcm.googleapis.com"]);
    expect(dialled).toEqual([PUSH_SERVICE_ADDRESS]);
    expect(received.length).toBe(before + 1);
  });

  it("never connects to an inside endpoint already in the table (stored before the rule), through the real internet path", async () => {
    const { client: player } = await signIn(server, "player@labcash.test");
    await forgetEveryBrowser(player);
    const insidePort = (inside.address() as AddressInfo).port;
    const stale = [
      `https://127.0.0.1:${insidePort}/push`,
      `https://localhost:${insidePort}/push`,
      `https://[::1]:${insidePort}/p`,
    ];
    const keys = browserSubscription("stale").keys;
    // A database from before the rule: the table's check is not there yet, and the rows went in.
    await server.db.exec("alter table public.push_subscriptions drop constraint push_subscriptions_endpoint_check");
    try {
      for (const endpoint of stale)
        await server.db.query(
          "insert into public.push_subscriptions (user_id, endpoint, p256dh, auth) values ($1, $2, $3, $4)",
          [PLAYER_ID, endpoint, keys.p256dh, keys.auth],
        );
      await topUp();
      // The sender's own network (the system resolver, connections pinned to the checked address): nothing sent.
      const report = await deliverQueuedPush(adminClient(server), vapid);
      expect(report).toMatchObject({ claimed: stale.length, sent: 0, failed: 0, refused: stale.length });
      expect(insideConnections).toBe(0);

      // The migration that brings the rule drops such rows and puts the check on the table.
      const migration = readFileSync(
        path.join(import.meta.dirname, "../../supabase/migrations/20261207013000_push_service_endpoints.sql"),
        "utf8",
      );
      await server.db.exec(migration);
      expect(await endpointsOf(player)).toEqual([]);
    } finally {
      await server.db.exec(
        `do $$ begin
           if not exists (select 1 from pg_constraint where conname = 'push_subscriptions_endpoint_check') then
             delete from public.push_subscriptions where not private.is_push_service_endpoint(endpoint);
             alter table public.push_subscriptions
               add constraint push_subscriptions_endpoint_check check (private.is_push_service_endpoint(endpoint));
           end if;
         end $$`,
      );
    }
  });

  it("connects the pinned agent to the checked address whatever the name, with the certificate checked against the name", async () => {
    // Without any DNS: the agent pinned to 127.0.0.1 reaches the stand-in for fcm.googleapis.com's URL, so the
    // HTTP client never resolves the name again itself.
    const status = (agent: Agent) =>
      new Promise<number | Error>((resolve) => {
        const req = request(
          { host: "fcm.googleapis.com", port: pushServicePort, path: "/fcm/send/pinned", method: "POST", agent },
          (res) => resolve(res.statusCode ?? 0),
        );
        req.on("error", resolve);
        req.end();
      });
    expect(await status(pinnedAgent("127.0.0.1", { ca: certificate }))).toBe(201);
    expect(received.at(-1)?.path).toBe("/fcm/send/pinned");
    // The certificate must still name the host asked for.
    const wrongName = await new Promise<number | Error>((resolve) => {
      const req = request(
        {
          host: "updates.push.services.mozilla.com",
          port: pushServicePort,
          path: "/",
          agent: pinnedAgent("127.0.0.1", { ca: certificate }),
        },
        (res) => resolve(res.statusCode ?? 0),
      );
      req.on("error", resolve);
      req.end();
    });
    expect(wrongName).toBeInstanceOf(Error);
  });
});

const rpcKeys = (keys: { p256dh: string; auth: string }) => ({ p_p256dh: keys.p256dh, p_auth: keys.auth });

async function endpointsOf(player: Client): Promise<string[]> {
  const { data, error } = await player.rpc("get_my_push_settings");
  expect(error).toBeNull();
  return (data as { endpoints: string[] }).endpoints;
}

async function forgetEveryBrowser(player: Client) {
  for (const endpoint of await endpointsOf(player))
    expect((await player.rpc("delete_push_subscription", { p_endpoint: endpoint })).error).toBeNull();
}
