// Landed migrations are frozen: supabase/migrations.sum lists each one's SHA-256, and
// this test fails when a listed migration is changed or deleted, or a migration is not
// listed. The rule (scripts/db-sum.mjs): a change is a new migration file, and an entry
// of the checksum file is never rewritten.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..", "..");
const migrationsDir = path.join(root, "supabase", "migrations");
const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

/** Reads a checksum file without the script's code, so the two check each other. */
function readSum(file: string) {
  const [head, ...lines] = readFileSync(file, "utf8").split("\n").filter(Boolean);
  const entries = lines.map((line) => {
    const [name, hash] = line.split(" ");
    return { name, hash };
  });
  return { head, lines, entries };
}

describe("supabase/migrations.sum", () => {
  const sum = readSum(`${migrationsDir}.sum`);

  it("its first line hashes the whole list", () => {
    expect(sum.head).toBe(`h1:${sha256(sum.lines.map((l) => `${l}\n`).join(""))}`);
  });

  it("lists every migration, in order, and each listed migration is unchanged", () => {
    const files = readdirSync(migrationsDir)
      .filter((f) => f.endsWith(".sql"))
      .sort();
    expect(files.length).toBeGreaterThanOrEqual(7);
    expect(sum.entries.map((e) => e.name)).toEqual(files);
    for (const { name, hash } of sum.entries) {
      expect(sha256(readFileSync(path.join(migrationsDir, name))), `${name} changed after it was listed`).toBe(hash);
    }
  });
});

describe("npm run db:sum", () => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "labcash-sum-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  let copies = 0;

  /** A copy of the migrations folder and its checksum file to run the script on. */
  function copyOfMigrations(): string {
    copies += 1;
    const dir = path.join(scratch, `copy${copies}`, "migrations");
    cpSync(migrationsDir, dir, { recursive: true });
    cpSync(`${migrationsDir}.sum`, `${dir}.sum`);
    return dir;
  }
  const dbSum = (dir: string, ...args: string[]) =>
    spawnSync(process.execPath, [path.join(root, "scripts", "db-sum.mjs"), "--dir", dir, ...args], {
      encoding: "utf8",
    });

  it("passes the check on the committed folder", () => {
    const run = dbSum(copyOfMigrations(), "--check");
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("appends a new migration and leaves every existing line as it was", () => {
    const dir = copyOfMigrations();
    const before = readSum(`${dir}.sum`);
    writeFileSync(
      path.join(dir, "20991231000000_later_change.sql"),
      "create or replace function public.x() returns int language sql as 'select 2';\n",
    );
    expect(dbSum(dir, "--check").status).toBe(1);
    const run = dbSum(dir);
    expect(run.status).toBe(0);
    const after = readSum(`${dir}.sum`);
    expect(after.lines.slice(0, -1)).toEqual(before.lines);
    expect(after.entries.at(-1)).toEqual({
      name: "20991231000000_later_change.sql",
      hash: sha256(readFileSync(path.join(dir, "20991231000000_later_change.sql"))),
    });
    expect(after.head).toBe(`h1:${sha256(after.lines.map((l) => `${l}\n`).join(""))}`);
    expect(dbSum(dir, "--check").status).toBe(0);
  });

  it("refuses an edited migration and leaves the checksum file alone", () => {
    const dir = copyOfMigrations();
    const edited = readSum(`${dir}.sum`).entries[2].name;
    appendFileSync(path.join(dir, edited), "-- a small edit\n");
    const sumBefore = readFileSync(`${dir}.sum`, "utf8");
    for (const args of [[], ["--check"]]) {
      const run = dbSum(dir, ...args);
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(
        `${edited} changed after it was listed. Restore it and put the change in a new migration file.`,
      );
    }
    expect(readFileSync(`${dir}.sum`, "utf8")).toBe(sumBefore);
  });

  it("refuses a deleted migration, a new one dated before a listed one, and a hand-edited list", () => {
    const deleted = copyOfMigrations();
    const gone = readSum(`${deleted}.sum`).entries[0].name;
    rmSync(path.join(deleted, gone));
    expect(dbSum(deleted).stderr).toContain(`${gone} is listed but was deleted.`);

    const early = copyOfMigrations();
    writeFileSync(path.join(early, "20200101000000_too_early.sql"), "select 1;\n");
    const run = dbSum(early);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("20200101000000_too_early.sql sorts before");

    const handEdited = copyOfMigrations();
    const sum = readFileSync(`${handEdited}.sum`, "utf8");
    writeFileSync(`${handEdited}.sum`, sum.replace(/^(\S+ )[0-9a-f]{64}$/m, `$1${"0".repeat(64)}`));
    expect(dbSum(handEdited, "--check").stderr).toContain("has been edited by hand");
  });
});
