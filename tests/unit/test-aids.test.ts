// The test aids are routes only in the e2e suite's build: a deployment's build (no LABCASH_TEST_AIDS) has no
// /error-test, /error-test/download or /api/error-test, so they are not found there, while the specification's own
// test pages stay. Next.js takes a file as a page or route when its name is page.<ext> or route.<ext> for an <ext>
// of pageExtensions (next.config.ts), which is what this walks app/ with.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { routeExtensions } from "@/lib/test-aids";

const APP = path.resolve(__dirname, "../../app");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : [path.relative(APP, full)];
  });
}

/** The app's pages and route handlers, as a build with `env` finds them. */
function routeFiles(env: Record<string, string | undefined>): string[] {
  const extensions = routeExtensions(env);
  return files(APP).filter((file) =>
    extensions.some((ext) => ["page", "route"].some((name) => path.basename(file) === `${name}.${ext}`)),
  );
}

const AIDS = [
  "(site)/error-test/page.aid.tsx",
  "(site)/error-test/download/route.aid.ts",
  "api/error-test/route.aid.ts",
  "%5Fvercel/insights/script.js/route.aid.ts",
];

describe("test aids", () => {
  it("are no route in a deployment's build, where the specification's test pages stay", () => {
    const deployed = routeFiles({});
    expect(deployed.filter((file) => file.includes("error-test"))).toEqual([]);
    expect(deployed).toEqual(
      expect.arrayContaining(["(site)/confetti-test/page.tsx", "(site)/notifications-test/page.tsx"]),
    );
    expect(deployed.length).toBeGreaterThan(50);
  });

  it("are routes in the e2e suite's build, and every *.aid file is one of them", () => {
    const e2e = routeFiles({ LABCASH_TEST_AIDS: "1" });
    expect(e2e.filter((file) => !routeFiles({}).includes(file)).sort()).toEqual([...AIDS].sort());
    expect(
      files(APP)
        .filter((file) => /\.aid\.tsx?$/.test(file))
        .sort(),
    ).toEqual([...AIDS].sort());
  });

  it("are refused in a Vercel build", () => {
    expect(() => routeExtensions({ LABCASH_TEST_AIDS: "1", VERCEL: "1" })).toThrow(/never has test aids/);
    expect(routeExtensions({ VERCEL: "1" })).not.toContain("aid.tsx");
  });
});
