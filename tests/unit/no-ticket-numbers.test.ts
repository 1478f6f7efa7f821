// A comment says why, not which ticket asked: the tickets are not in the repository, so a comment that points
// at one tells a newcomer nothing. No tracked file names one, outside the landed migrations (history, never edited) and the
// decision records (which may say where a decision came from).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const ALLOWED = ["supabase/migrations/", "docs/decisions/"];
const TICKET = /\bissues?\s+#?\d+/i;

describe("ticket numbers", () => {
  it("are named nowhere in the code, SQL, scripts, tests or config", () => {
    const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" })
      .split("\0")
      .filter((file) => file && !ALLOWED.some((dir) => file.startsWith(dir)));
    expect(tracked.length).toBeGreaterThan(500);
    const named: string[] = [];
    for (const file of tracked) {
      let text: string;
      try {
        text = readFileSync(path.join(ROOT, file), "utf8");
      } catch {
        continue; // listed by git but not in this checkout (a deleted file not yet committed)
      }
      if (text.includes("\0")) continue;
      text.split("\n").forEach((line, i) => {
        if (TICKET.test(line)) named.push(`${file}:${i + 1}: ${line.trim().slice(0, 100)}`);
      });
    }
    expect(named).toEqual([]);
  });

  it("are found in the forms they take", () => {
    // Built from parts, so this file names no ticket itself.
    const named = ["see issue", "(Issue #", "issues"].map(
      (words, i) => `${words}${words.endsWith("#") ? "" : " "}${i + 4}`,
    );
    for (const line of named) expect(line).toMatch(TICKET);
    for (const line of ["a zod issue's path", "issue.path[0]", "the issue's case"]) expect(line).not.toMatch(TICKET);
  });
});
