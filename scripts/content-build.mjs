#!/usr/bin/env node
// Generates .content-collections/ (the typed content the app imports) without a Next build,
// so `npm run typecheck` works on a fresh clone. `next dev` and `next build` do this themselves.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createBuilder } from "@content-collections/core";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const builder = await createBuilder(path.join(root, "content-collections.ts"));
await builder.build();
