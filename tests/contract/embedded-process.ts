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
 * The demo admin at aal2 on a backend with a fresh data directory (the crash test's, bench:entries'), so the
 * authenticator is set up here: the console needs it proven with a code from the admin's inbox first. No vitest
 * here, so a script can import it.
 */
export async function adminAtAal2(url: string, password: string): Promise<SupabaseClient> {
  const admin = createClient(url, EMBEDDED_PUBLISHABLE_KEY, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
  const call = async (fn: string, args: Record<string, unknown> = {}) => {
    const { error } = await admin.rpc(fn, args);
    if (error) throw new Error(`${fn}: ${error.message}`);
  };
  const signedIn = await admin.auth.signInWithPassword({ email: "admin@labcash.test", password });
  if (signedIn.error) throw signedIn.error;
  await admin.auth.reauthenticate();
  const mail = await fetch(`${url}/_embedded/mail?email=admin%40labcash.test`, {
    headers: { apikey: EMBEDDED_SECRET_KEY },
  });
  const [{ token }] = (await mail.json()) as Array<{ token: string }>;
  await call("confirm_reauthentication", { p_code: token });
  const { data, error } = await admin.auth.mfa.enroll({ factorType: "totp", friendlyName: "Authenticator" });
  if (error) throw error;
  const verified = await admin.auth.mfa.challengeAndVerify({ factorId: data.id, code: totpCode(data.totp.secret) });
  if (verified.error) throw verified.error;
  await call("record_factor_enrolment");
  return admin;
}
