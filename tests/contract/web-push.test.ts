// Web push end to end against the real embedded backend: a player's browser subscription stored through
// supabase-js, a notification written by SQL (a top-up), and the cron's delivery (lib/push/deliver.ts, web-push's
// sendNotification) posting to a push-service stand-in over HTTPS. The stand-in checks what a real push service
// and browser would: the VAPID JWT (RFC 8292) verifies with the sender's public key, and the body decrypts as an
// RFC 8291 aes128gcm message with the subscription's own private key, done here with node's crypto alone, not the
// library. A 410 answer removes the subscription.
import { createECDH, createPublicKey, hkdfSync, createDecipheriv, randomBytes, verify } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Agent, createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { generateVAPIDKeys } from "web-push";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverQueuedPush } from "@/lib/push/deliver";
import { adminClient, PLAYER_ID, signIn, startTestServer, type Client, type TestServer } from "./helpers";

type Received = { path: string; headers: Record<string, string | string[] | undefined>; body: Buffer };

let server: TestServer;
let pushService: Server;
let origin: string;
let agent: Agent;
const received: Received[] = [];
/** Paths the stand-in answers 410 Gone for: subscriptions the browser dropped. */
const gone = new Set<string>();
const vapid = { ...generateVAPIDKeys(), subject: "mailto:push-test@labcash.test" };

beforeAll(async () => {
  server = await startTestServer();
  // A push service speaks HTTPS only (web-push uses node:https): a throwaway certificate for localhost.
  const dir = mkdtempSync(path.join(os.tmpdir(), "labcash-push-"));
  execFileSync("openssl", [
    ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1"],
    ...["-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost"],
    ...["-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem")],
  ]);
  const [key, cert] = [readFileSync(path.join(dir, "key.pem")), readFileSync(path.join(dir, "cert.pem"))];
  rmSync(dir, { recursive: true });
  agent = new Agent({ ca: cert });
  pushService = createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(gone.has(req.url ?? "") ? 410 : 201).end();
    });
  });
  await new Promise<void>((resolve) => pushService.listen(0, "localhost", resolve));
  origin = `https://localhost:${(pushService.address() as AddressInfo).port}`;
  // What the seed's own events queued goes first (to no one: nobody has subscribed yet).
  await deliverQueuedPush(adminClient(server), vapid, { agent });
});
afterAll(async () => {
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
    path: `/push/${name}`,
    endpoint: `${origin}/push/${name}`,
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

    const report = await deliverQueuedPush(adminClient(server), vapid, { agent });
    expect(report).toMatchObject({ sent: 1, removed: 0, failed: 0 });
    const [request] = received.filter((r) => r.path === sub.path);
    expect(request.headers["content-encoding"]).toBe("aes128gcm");
    expect(request.headers.ttl).toBe(String(24 * 60 * 60));
    const claims = vapidClaims(String(request.headers.authorization));
    expect(claims).toMatchObject({ aud: origin, sub: vapid.subject });
    expect(Number(claims.exp) * 1000).toBeGreaterThan(Date.now());
    expect(JSON.parse(decrypt(request.body, sub))).toEqual({
      title: "Top-up credited",
      body: expect.stringMatching(/^£5\.00 added to your credit; your balance is £[\d,.]+\.$/),
      url: "/account/credits",
    });
    // Each notification is pushed once.
    expect(await deliverQueuedPush(adminClient(server), vapid, { agent })).toMatchObject({ claimed: 0, sent: 0 });
  });

  it("removes a subscription the push service answers 410 Gone for", async () => {
    const { client: player } = await signIn(server, "player@labcash.test");
    const sub = browserSubscription("dropped-browser");
    await subscribe(player, sub);
    gone.add(sub.path);
    await topUp();

    const report = await deliverQueuedPush(adminClient(server), vapid, { agent });
    expect(report.removed).toBe(1);
    const { data } = await player.rpc("get_my_push_settings");
    expect((data as { endpoints: string[] }).endpoints).not.toContain(sub.endpoint);
  });
});
