// Next calls register() once when a server starts (`next start`, `next dev`, each Vercel function's
// cold start). The checks live in instrumentation-node.ts, imported on the Node.js runtime only (the
// app, proxy included, runs nowhere else), so the edge build of this file stays empty.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") await import("./instrumentation-node");
}
