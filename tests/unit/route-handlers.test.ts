// Every route handler is written one way, defineRoute (lib/http/define-route.ts: auth, parsed params and query,
// the database's refusals as statuses), which answers a fault through handleErrors (lib/http/route-handler.ts),
// never Next's empty 500: each exported method of every app/**/route.ts (and test aid route.aid.ts) is wrapped.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const APP = path.join(process.cwd(), "app");

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    // route.aid.ts: a test aid, a route in the e2e build (lib/test-aids.ts).
    return entry.name === "route.ts" || entry.name === "route.aid.ts" ? [full] : [];
  });
}

describe("route handlers", () => {
  const files = routeFiles(APP);

  it("are found", () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it.each(files.map((file) => [path.relative(process.cwd(), file)]))("%s wraps every method in defineRoute", (file) => {
    const source = readFileSync(file, "utf8");
    const methods = [
      ...source.matchAll(
        /^export (?:async )?(?:function|const) (GET|POST|PUT|PATCH|DELETE|HEAD)\b[^]*?(?=\n\S|(?![^]))/gm,
      ),
    ];
    expect(methods.length).toBeGreaterThan(0);
    for (const [statement] of methods)
      expect(statement).toMatch(/^export const \w+ = defineRoute\(\s*\{ kind: "(json|html)"/);
  });
});
