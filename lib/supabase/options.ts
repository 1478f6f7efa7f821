import { WebSocket } from "ws";

// supabase-js 2.1xx builds a realtime client in its constructor and needs a
// WebSocket; Node 20 has none built in. We never use realtime, but must pass one.
export const clientOptions = {
  realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
} as const;
