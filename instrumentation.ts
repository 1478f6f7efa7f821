// Next calls register() once when a server starts (`next start`, `next dev`, each Vercel function's
// cold start), and onRequestError for every error a request meets on the server. Both work in
// instrumentation-node.ts / lib/observability, imported on the Node.js runtime only (the app, proxy
// included, runs nowhere else), so the edge build of this file stays empty.
import type { Instrumentation } from "next";

export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") await import("./instrumentation-node");
}

export const onRequestError: Instrumentation.onRequestError = async (error, request, context) => {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { reportRequestError } = await import("./lib/observability/telemetry");
  await reportRequestError(error, request, context);
};
