// The CLI (`npm run embedded`) as a real process on a real data directory:
// data and sessions survive `kill -9`, a second process is refused, SIGTERM is clean.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { importJWK, SignJWT } from "jose";
import { afterAll, describe, expect, it } from "vitest";
import { birthDateYearsAgo, client, raw, STRONG_PASSWORD, uniqueEmail } from "./helpers";

const started: ChildProcess[] = [];
let dataDir = "";

afterAll(async () => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

function launch(dir: string): ChildProcess {
  // node --import tsx (not the tsx wrapper) so the pid we signal is the server itself.
  const child = spawn(process.execPath, ["--import", "tsx", "supabase/embedded/main.ts"], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    env: { ...process.env, LABCASH_DATA_DIR: dir, EMBEDDED_PORT: "0", EMBEDDED_LOG: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(child);
  return child;
}

function ready(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = out.match(/^Embedded Supabase ready at (http:\/\/\S+)$/m);
      if (match) resolve(match[1]);
    });
    child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`embedded backend exited (${code}) before ready:\n${out}\n${err}`)));
  });
}

function exited(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, stderr });
    else child.once("exit", (code) => resolve({ code, stderr }));
  });
}

describe("embedded backend process", () => {
  it(
    "keeps data and sessions across kill -9, refuses a second process, stops cleanly on SIGTERM",
    { timeout: 180_000 },
    async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), "labcash-durability-"));
      const first = launch(dataDir);
      const url1 = await ready(first);
      expect(url1).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

      const email = uniqueEmail("durable");
      const signUp = await client({ url: url1 }).auth.signUp({
        email,
        password: STRONG_PASSWORD,
        options: { data: { date_of_birth: birthDateYearsAgo(30) } },
      });
      expect(signUp.error).toBeNull();
      const session = signUp.data.session!;

      const killed = exited(first);
      first.kill("SIGKILL");
      await killed;

      const second = launch(dataDir);
      const url2 = await ready(second);
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
      const intruder = launch(dataDir);
      const refused = await exited(intruder);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("Another embedded backend");

      const stopped = exited(second);
      second.kill("SIGTERM");
      expect((await stopped).code).toBe(0);
      expect(existsSync(path.join(dataDir, "embedded.pid"))).toBe(false);
    },
  );
});
