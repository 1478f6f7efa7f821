// Next calls register() once when a server starts (`next start`, `next dev`, each Vercel function's
// cold start): checking the environment here stops a misconfigured server before its first request,
// with every missing or malformed variable named (lib/env.ts).
export async function register() {
  // The edge runtime has no use for these settings; the proxy and every page run on Node.
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { env, EnvError } = await import("./lib/env");
  try {
    env();
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    // Next would log this and go on serving errors; a server that cannot work should not start.
    console.error(error.message);
    process.exit(1);
  }
}
