// The CSV cell encoder (private.csv_field, and csvCell beside the activity CSV, which the site writes), by
// OWASP's CSV injection guidance: a
// cell starting with = + - @ tab or CR is prefixed with ' and quoted; a cell containing , ; " CR or LF is
// quoted with its quotes doubled. Then the two files an outside tester reached with `x;=1+1;y`: the
// public entrants CSV (a player's name and town) and the admin activity CSV.
import { beforeAll, describe, expect, it } from "vitest";
import { activityCsv, csvCell } from "@/lib/activity/csv";
import { anon, asUser, dbPerFile } from "./support";

const db = dbPerFile();
let admin: string;

beforeAll(async () => {
  admin = await db().createAdmin();
});

const cell = async (value: string | null) =>
  (await db().sql<{ cell: string }>("select private.csv_field($1) as cell", [value]))[0].cell;

describe("private.csv_field", () => {
  it.each([
    ["=1+1", `"'=1+1"`],
    ["x;=1+1;y", `"x;=1+1;y"`],
    ["@SUM(A1)", `"'@SUM(A1)"`],
    ["+1", `"'+1"`],
    ["-1", `"'-1"`],
    ["\t=1", `"'\t=1"`],
    ["\r=1", `"'\r=1"`],
    ['a"b', `"a""b"`],
    ["a,b", `"a,b"`],
    ["a\nb", `"a\nb"`],
    ['=HYPERLINK("http://x";"y")', `"'=HYPERLINK(""http://x"";""y"")"`],
    ["Ada L.", "Ada L."],
    ["Leeds", "Leeds"],
    ["", ""],
  ])("writes %j as %j, and the site's csvCell the same", async (value, expected) => {
    expect(await cell(value)).toBe(expected);
    expect(csvCell(value)).toBe(expected);
  });

  it("writes null as an empty cell", async () => {
    expect(await cell(null)).toBe("");
    expect(csvCell(null)).toBe("");
  });
});

type CsvChunk = { csv: string; done: boolean };

describe("the files that carry user text", () => {
  it("the public entrants CSV quotes a name and a town with ; and defuses a formula town", async () => {
    const semi = await db().createPlayer({ name: "x;=1+1;y Smith", credits: 10 });
    const formula = await db().createPlayer({ name: "Plain Player", credits: 10 });
    await db().sql("update public.profiles set town = $2 where id = $1", [semi, "x;=1+1;y"]);
    await db().sql("update public.profiles set town = $2 where id = $1", [formula, "@SUM(A1)"]);
    const id = await db().createCompetition(admin, { total_tickets: 10 });
    for (const uid of [semi, formula])
      await db().call(asUser(uid), "enter_competition", { p_competition_id: id, p_quantity: 1, p_answer: "4" });
    await db().sql(
      `update public.competitions set opens_at = now() - interval '30 days', closes_at = now() - interval '1 hour',
              postal_deadline = now() + interval '1 day', draw_at = now() + interval '2 days' where id = $1`,
      [id],
    );
    const [{ slug }] = await db().sql<{ slug: string }>("select slug from public.competitions where id = $1", [id]);

    const { csv } = await db().call<CsvChunk>(anon, "get_entrants_csv", { p_slug: slug });
    const lines = csv.trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^1,[0-9a-f-]{36},"x;=1\+1;y S\.","x;=1\+1;y",online$/);
    expect(lines[2]).toMatch(/^2,[0-9a-f-]{36},Plain P\.,"'@SUM\(A1\)",online$/);
  });

  it("the admin activity CSV quotes an action, a name, the sentence and the details with ;", async () => {
    const actor = await db().createUser({ name: "x;=1+1;y", approved: true });
    await db().sql(
      `insert into public.activity_log (actor_id, action, details) values ($1, 'test.semi;=1+1;colon', '{"note": "a;b"}')`,
      [actor],
    );
    const { rows } = await db().call<{ rows: never[] }>(asUser(admin), "admin_activity_export", { p_actor: actor });
    let csv = "";
    for await (const part of activityCsv([rows])) csv += part;
    const lines = csv.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/,"\{""note"":""a;b""\}"$/);
    expect(lines[1]).toContain(`,"test.semi;=1+1;colon",${actor},"x;=1+1;y",`);
    expect(lines[1]).toContain(`,"Test semi;=1+1;colon, by x;=1+1;y.",`);
  });
});
