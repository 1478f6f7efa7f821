#!/usr/bin/env node
// `npm run db:sum`: records new migrations in supabase/migrations.sum, the checksum file
// beside the folder (in the style of Atlas's atlas.sum). `npm run db:sum -- --check`
// verifies it without writing; tests/unit/migrations-sum.test.ts holds `npm test` to it.
//
// The rule: a landed migration is never edited. A change is a new migration file
// (`create or replace` for a function, `alter` for a table), because the Supabase CLI
// and the embedded migrator skip a version already applied, so an edit would never
// reach a hosted database or a developer's existing data. An entry of the checksum
// file is never rewritten: this script only appends.
//
// Format: the first line is `h1:<sha256 of every line after it>`; then one line per
// migration, in file-name order: `<file name> <sha256 of the file>` (hex).
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const check = args.includes("--check");
const dirArg = args.indexOf("--dir");
const migrationsDir = path.resolve(dirArg >= 0 ? args[dirArg + 1] : path.join(root, "supabase", "migrations"));
const sumFile = `${migrationsDir}.sum`;

const sha256 = (data) => createHash("sha256").update(data).digest("hex");

function fail(message) {
  console.error(`db:sum: ${message}`);
  process.exit(1);
}

const files = readdirSync(migrationsDir)
  .filter((f) => f.endsWith(".sql"))
  .sort();
const lines = existsSync(sumFile) ? readFileSync(sumFile, "utf8").split("\n").filter(Boolean) : [];
const [head, ...entryLines] = lines;
const entries = entryLines.map((line) => {
  const [file, hash, extra] = line.split(" ");
  if (!file || !/^[0-9a-f]{64}$/.test(hash ?? "") || extra !== undefined)
    fail(`${path.basename(sumFile)}: malformed line "${line}"`);
  return { file, hash };
});
const listing = (list) => list.map((e) => `${e.file} ${e.hash}\n`).join("");
if (head !== undefined && head !== `h1:${sha256(listing(entries))}`) {
  fail(
    `${path.basename(sumFile)} has been edited by hand (its first line does not match the entries). Restore it from git.`,
  );
}

const problems = [];
for (const { file, hash } of entries) {
  const full = path.join(migrationsDir, file);
  if (!existsSync(full)) problems.push(`${file} is listed but was deleted. Restore it: landed migrations stay.`);
  else if (sha256(readFileSync(full)) !== hash) {
    problems.push(`${file} changed after it was listed. Restore it and put the change in a new migration file.`);
  }
}
const listed = new Set(entries.map((e) => e.file));
const last = entries.at(-1)?.file;
const added = files.filter((f) => !listed.has(f));
for (const file of added) {
  if (last && file < last)
    problems.push(`${file} sorts before ${last}, which is already listed: give it a later timestamp.`);
}
if (problems.length) fail(problems.join("\n"));

if (check) {
  if (added.length) fail(`not listed in ${path.basename(sumFile)}: ${added.join(", ")}. Run \`npm run db:sum\`.`);
  console.log(`${path.basename(sumFile)}: ${entries.length} migrations, all unchanged.`);
} else if (added.length === 0 && head !== undefined) {
  console.log(`${path.basename(sumFile)} is up to date.`);
} else {
  const next = [
    ...entries,
    ...added.map((file) => ({ file, hash: sha256(readFileSync(path.join(migrationsDir, file))) })),
  ];
  writeFileSync(sumFile, `h1:${sha256(listing(next))}\n${listing(next)}`);
  for (const file of added) console.log(`listed ${file}`);
}
