#!/usr/bin/env node
// Wipes the embedded backend's data so the next `npm run dev` / `npm start` applies
// every migration and the demo seed afresh. Stop the site first.
import { rmSync } from "node:fs";
import net from "node:net";
import path from "node:path";

const dataDir = path.resolve(process.env.LABCASH_DATA_DIR ?? ".data/embedded");
const port = Number(process.env.EMBEDDED_PORT ?? 54321);

const inUse = await new Promise((resolve) => {
  const socket = net.connect(port, "127.0.0.1");
  socket.once("connect", () => (socket.destroy(), resolve(true)));
  socket.once("error", () => resolve(false));
});
if (inUse) {
  console.error(
    `The embedded backend is running on port ${port}; stop it (Ctrl-C in its terminal) and run this again.`,
  );
  process.exit(1);
}
rmSync(dataDir, { recursive: true, force: true });
console.log(
  `Removed ${path.relative(process.cwd(), dataDir) || dataDir}. The next start re-creates it with the demo data.`,
);
