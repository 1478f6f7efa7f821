// The CLI (`npm run embedded`) as a real process on a real data directory, for the tests that kill it.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { EMBEDDED_PUBLISHABLE_KEY, EMBEDDED_SECRET_KEY } from "@labcash/embedded-supabase/keys";
import { totpCode } from "@labcash/embedded-supabase/totp";

const started: ChildProcess[] = [];

/** Starts `scripts/embedded.ts` (`npm run embedded`) on `dataDir`, on a free port. */
export function launchEmbedded(dataDir: string): ChildProcess {
  // node --import tsx (not the tsx wrapper) so the pid we signal is the server itself.
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/embedded.ts"], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    env: {
      ...process.env,
      LABCASH_DATA_DIR: dataDir,
      EMBEDDED_PORT: "0",
      EMBEDDED_LOG: "",
      EMBEDDED_RATE_LIMITS: "off",
      EMBEDDED_PASSWORD_HASH_COST: "quick",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(child);
  return child;
}

/** The URL the process prints once it serves. */
export function embeddedReady(child: ChildProcess): Promise<string> {
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

/** Resolves when the process has exited, with its code and what it wrote to stderr from now on. */
export function embeddedExited(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, stderr });
    else child.once("exit", (code) => resolve({ code, stderr }));
  });
}

/** Kills every process this file started that is still running (for afterAll). */
export function killLeftovers(): void {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}

/**
 * Enrols an authenticator for the signed-in `client` the way the console does: a code e-mailed to `email` confirmed
 * first (an admin's factor counts only once their inbox proves it), then the factor. The caller verifies it (a code
 * from `secret`) and records the enrolment. No vitest here, so a script can import it.
 */
export async function enrolProvenAuthenticator(
  client: SupabaseClient,
  url: string,
  email: string,
): Promise<{ factorId: string; secret: string }> {
  await client.auth.reauthenticate();
  const mail = await fetch(`${url}/_embedded/mail?email=${encodeURIComponent(email)}`, {
    headers: { apikey: EMBEDDED_SECRET_KEY },
  });
  if (!mail.ok) throw new Error(`mail outbox answered ${mail.status}`);
  const [{ token }] = (await mail.json()) as Array<{ token: string }>;
  const confirmed = await client.rpc("confirm_reauthentication", { p_code: token });
  if (confirmed.data !== true) throw new Error(`inbox code refused: ${JSON.stringify(confirmed)}`);
  const { data, error } = await client.auth.mfa.enroll({
    factorType: "totp",
    friendlyName: `Authenticator ${Date.now()}`,
  });
  if (error) throw error;
  return { factorId: data.id, secret: data.totp.secret };
}

/**
 * The demo admin at aal2 on a backend with a fresh data directory (the crash test's, bench:entries'), so the
 * authenticator is set up here.
 */
export async function adminAtAal2(url: string, password: string): Promise<SupabaseClient> {
  const email = "admin@labcash.test";
  const admin = createClient(url, EMBEDDED_PUBLISHABLE_KEY, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
  const signedIn = await admin.auth.signInWithPassword({ email, password });
  if (signedIn.error) throw signedIn.error;
  const { factorId, secret } = await enrolProvenAuthenticator(admin, url, email);
  const verified = await admin.auth.mfa.challengeAndVerify({ factorId, code: totpCode(secret) });
  if (verified.error) throw verified.error;
  const recorded = await admin.rpc("record_factor_enrolment");
  if (recorded.error) throw new Error(`record_factor_enrolment: ${recorded.error.message}`);
  return admin;
}
