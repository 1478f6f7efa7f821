// lib/ and supabase/ never import UI (docs/decisions/010), and a package never imports the app
// (docs/decisions/042): eslint.config.mjs's no-restricted-imports overrides say so,
// and this keeps them from being dropped or narrowed.
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint({ cwd: process.cwd() });

async function restricted(code: string, filePath: string): Promise<boolean> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.some((m) => m.ruleId === "no-restricted-imports");
}

describe("the layers' lint rule", () => {
  it("refuses components/ in lib/ and supabase/, by alias or by relative path", async () => {
    const alias = 'import { Badge } from "@/components/ui/badge";\nexport const a = Badge;\n';
    expect(await restricted(alias, "lib/area/probe.ts")).toBe(true);
    expect(await restricted(alias, "supabase/probe.ts")).toBe(true);
    const relative = 'import { Badge } from "../../components/ui/badge";\nexport const a = Badge;\n';
    expect(await restricted(relative, "lib/area/probe.ts")).toBe(true);
  });

  it("refuses the app in a package, by alias or by a path out of it", async () => {
    const probe = "packages/embedded-supabase/src/probe.ts";
    expect(await restricted('import { env } from "@/lib/env";\nexport const a = env;\n', probe)).toBe(true);
    expect(await restricted('import { env } from "../../../lib/env";\nexport const a = env;\n', probe)).toBe(true);
    expect(await restricted('import { send } from "./http";\nexport const a = send;\n', probe)).toBe(false);
  });

  it("lets app/ and components/ import UI", async () => {
    const alias = 'import { Badge } from "@/components/ui/badge";\nexport const a = Badge;\n';
    expect(await restricted(alias, "app/probe.tsx")).toBe(false);
    expect(await restricted(alias, "components/area/probe.tsx")).toBe(false);
  });
});
