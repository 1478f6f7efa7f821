import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { activityKindLabel, KIND_LABELS } from "@/lib/activity/kinds";

const migrations = path.join(__dirname, "../../supabase/migrations");

/** Every kind a migration logs by name: private.log_activity('family.kind', …). */
function loggedKinds(): string[] {
  const kinds = new Set<string>();
  for (const file of readdirSync(migrations).filter((f) => f.endsWith(".sql"))) {
    const sql = readFileSync(path.join(migrations, file), "utf8");
    for (const m of sql.matchAll(/log_activity\(\s*'([a-z_]+\.[a-z_]+)'/g)) kinds.add(m[1]);
  }
  return [...kinds].sort();
}

describe("activity kinds", () => {
  it("gives every kind the database logs a label of its own", () => {
    const kinds = loggedKinds();
    expect(kinds.length).toBeGreaterThan(20);
    const unlabelled = kinds.filter((k) => !(k in KIND_LABELS) && !k.startsWith("settings."));
    expect(unlabelled).toEqual([]);
  });

  it("reads settings changes with the settings screen's names, never the raw key", () => {
    expect(activityKindLabel("settings.top_up_min")).toBe("Setting changed: top-up minimum");
    expect(activityKindLabel("settings.approval_mode")).toBe("Setting changed: approval mode");
    expect(activityKindLabel("settings")).toBe("Settings");
    expect(activityKindLabel("user.approved")).toBe("User approved");
    expect(activityKindLabel("protections.self_exclusion")).toBe("Self-exclusion started");
  });

  it("still reads an unknown kind as words", () => {
    expect(activityKindLabel("widget.made_new")).toBe("Widget made new");
  });
});
