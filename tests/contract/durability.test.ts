// The CLI (`npm run embedded`) as a real process on a real data directory:
// data and sessions survive `kill -9`, a second process is refused, SIGTERM is clean.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { importJWK, SignJWT } from "jose";
import { afterAll, describe, expect, it } from "vitest";
import { embeddedExited, embeddedReady, killLeftovers, launchEmbedded } from "./embedded-process";
import { birthDateYearsAgo, client, raw, STRONG_PASSWORD, uniqueEmail } from "./helpers";

let dataDir = "";

afterAll(async () => {
  killLeftovers();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe("embedded backend process", () => {
  it(
    "keeps data and sessions across kill -9, refuses a second process, stops cleanly on SIGTERM",
    { timeout: 180_000 },
    async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), "labcash-durability-"));
      const first = launchEmbedded(dataDir);
      const url1 = await embeddedReady(first);
      expect(url1).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

      const email = uniqueEmail("durable");
      const signUp = await client({ url: url1 }).auth.signUp({
        email,
        password: STRONG_PASSWORD,
        options: { data: { date_of_birth: birthDateYearsAgo(30) } },
      });
      expect(signUp.error).toBeNull();
      const session = signUp.data.session!;

      const killed = embeddedExited(first);
      first.kill("SIGKILL");
      await killed;

      const second = launchEmbedded(dataDir);
      const url2 = await embeddedReady(second);
      const signInAgain = await client({ url: url2 }).auth.signInWithPassword({ email, password: STRONG_PASSWORD });
      expect(signInAgain.error).toBeNull();

      // The key pair is kept in the data directory, so tokens and sessions from before still work.
      const claims = await client({ url: url2 }).auth.getClaims(session.access_token);
      expect(claims.error).toBeNull();
      expect(claims.data?.claims.email).toBe(email);
      const refreshed = await client({ url: url2 }).auth.refreshSession({ refresh_token: session.refresh_token });
      expect(refreshed.error).toBeNull();

      // An expired token signed with the real key: PostgREST's PGRST303, GoTrue's bad_jwt.
      const stored = JSON.parse(await readFile(path.join(dataDir, "jwk.json"), "utf8"));
      const key = await importJWK({ ...stored.privateJwk, alg: "ES256" }, "ES256");
      const now = Math.floor(Date.now() / 1000);
      const expired = await new SignJWT({
        sub: signUp.data.user!.id,
        role: "authenticated",
        session_id: claims.data!.claims.session_id,
      })
        .setProtectedHeader({ alg: "ES256", kid: stored.kid, typ: "JWT" })
        .setIssuedAt(now - 7200)
        .setExpirationTime(now - 3600)
        .sign(key);
      const rpc = await raw({ url: url2 }, "/rest/v1/rpc/get_my_account", {
        method: "POST",
        headers: { authorization: `Bearer ${expired}`, "content-type": "application/json" },
        body: "{}",
      });
      expect(rpc.status).toBe(401);
      expect(await rpc.json()).toMatchObject({ code: "PGRST303", message: "JWT expired" });
      const user = await client({ url: url2 }).auth.getUser(expired);
      expect(user.error?.status).toBe(403);
      expect(user.error?.code).toBe("bad_jwt");

      // One process per data directory.
      const intruder = launchEmbedded(dataDir);
      const refused = await embeddedExited(intruder);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("Another embedded backend");

      const stopped = embeddedExited(second);
      second.kill("SIGTERM");
      expect((await stopped).code).toBe(0);
      expect(existsSync(path.join(dataDir, "embedded.pid"))).toBe(false);
    },
  );
});
