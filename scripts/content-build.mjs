#!/usr/bin/env node
// Generates .content-collections/ (the typed content the app imports) and .generated/site-css.ts (the
// stylesheet, scripts/site-css.mjs) without a Next build, so `npm run typecheck` works on a fresh clone.
// `next dev` and `next build` do both themselves (next.config.ts).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createBuilder } from "@content-collections/core";
import { writeSiteCss } from "./site-css.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const builder = await createBuilder(path.join(root, "content-collections.ts"));
await builder.build();
await writeSiteCss();
