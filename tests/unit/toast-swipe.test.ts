import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Spec §9: toasts are swiped away past 50 px. sonner hard-codes 45, so patches/ sets it and
// patch-package applies the patch on install; this fails if it was not applied.
describe("sonner swipe threshold", () => {
  it("is 50 px in both builds the app may load", () => {
    const dist = path.dirname(createRequire(import.meta.url).resolve("sonner"));
    for (const file of ["index.js", "index.mjs"]) {
      const source = readFileSync(path.join(dist, file), "utf8");
      expect(source, file).toMatch(/const SWIPE_THRESHOLD = 50;/);
    }
  });
});
