import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { activityKindLabel, KIND_LABELS } from "@/lib/activity/kinds";
import { hasSentence } from "@/lib/activity/sentences";
import { SETTING_LABELS } from "@/lib/settings/settings-fields";

const schemas = path.join(__dirname, "../../supabase/schemas");

/**
 * The kinds whose name SQL builds from a value ('top_up.' || p_status), each with the values it can take
 * (read beside the call in its source). A new built name fails the test below until it is listed here.
 */
const BUILT_KINDS: Record<string, string[]> = {
  // public.fail_top_up: p_status is failed or expired.
  top_up: ["failed", "expired"],
  // private.start_block: called with break and self_exclusion.
  protections: ["break", "self_exclusion"],
  // public.admin_update_complaint: p_status is acknowledged or resolved.
  complaint: ["acknowledged", "resolved"],
  // public.admin_update_settings: every setting on the screen.
  settings: Object.keys(SETTING_LABELS),
};

/** The text of each private.log_activity(…) call and each direct insert into public.activity_log. */
function auditCalls(sql: string): string[] {
  const calls: string[] = [];
  for (const m of sql.matchAll(/log_activity\(/g)) {
    let end = m.index + m[0].length;
    for (let depth = 1; depth > 0 && end < sql.length; end += 1) {
      if (sql[end] === "(") depth += 1;
      else if (sql[end] === ")") depth -= 1;
    }
    calls.push(sql.slice(m.index, end));
  }
  for (const m of sql.matchAll(/insert into public\.activity_log[^;]*;/g)) calls.push(m[0]);
  return calls;
}

/** Every kind the SQL sources record today: named ('user.approved', also inside a CASE) or built from a value. */
function recordedKinds(): { named: string[]; built: string[] } {
  const named = new Set<string>();
  const built = new Set<string>();
  for (const file of readdirSync(schemas).filter((f) => f.endsWith(".sql"))) {
    for (const call of auditCalls(readFileSync(path.join(schemas, file), "utf8"))) {
      for (const m of call.matchAll(/'([a-z_]+\.[a-z_]+)'/g)) named.add(m[1]);
      for (const m of call.matchAll(/'([a-z_]+)\.'\s*\|\|/g)) built.add(m[1]);
    }
  }
  return { named: [...named].sort(), built: [...built].sort() };
}

const allKinds = () => {
  const { named, built } = recordedKinds();
  return [...named, ...built.flatMap((family) => (BUILT_KINDS[family] ?? []).map((v) => `${family}.${v}`))];
};

describe("activity kinds", () => {
  it("finds the kinds SQL records, named and built", () => {
    const { named, built } = recordedKinds();
    expect(named.length).toBeGreaterThan(50);
    // Named inside a CASE, and by a direct insert: both found.
    expect(named).toEqual(expect.arrayContaining(["winner_story.consent_withdrawn", "protection.flag_raised"]));
    expect(built).toEqual(Object.keys(BUILT_KINDS).sort());
  });

  it("gives every kind the database records a label and a sentence of its own", () => {
    const kinds = allKinds();
    expect(kinds.filter((k) => !(k in KIND_LABELS) && !k.startsWith("settings."))).toEqual([]);
    expect(kinds.filter((k) => !hasSentence(k))).toEqual([]);
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
    expect(hasSentence("widget.made_new")).toBe(false);
  });
});
