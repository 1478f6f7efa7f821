// "Not found" is a 404: every function raises SQLSTATE PT404 for an unknown
// competition, user, draw, top-up, complaint or flag, which PostgREST (hosted and embedded alike)
// answers with HTTP 404; P0002 (no_data_found) was answered with 500. The message and the hint,
// the code the app switches on, are as they were.
import { beforeAll, describe, expect, it } from "vitest";
import { anon, asUser, attempt, dbPerFile, service } from "./support";

const db = dbPerFile();
const UNKNOWN = "00000000-0000-4000-8000-00000000dead";

let admin: string;
let player: string;

beforeAll(async () => {
  admin = await db().createAdmin();
  player = await db().createPlayer();
});

describe("unknown things answer PT404 with their code", () => {
  it.each([
    [
      "get_competition, an unknown slug",
      () => db().call(anon, "get_competition", { p_slug: "no-such-competition" }),
      "Competition not found",
      "competition_not_found",
    ],
    [
      "get_entry_quote, an unknown competition",
      () => db().call(asUser(player), "get_entry_quote", { p_competition_id: UNKNOWN }),
      "Competition not found",
      "competition_not_found",
    ],
    [
      "admin_get_user, an unknown user",
      () => db().call(asUser(admin), "admin_get_user", { p_user_id: UNKNOWN }),
      "No such user",
      "user_not_found",
    ],
    [
      "admin_approve_user, an unknown user",
      () => db().call(asUser(admin), "admin_approve_user", { p_user_id: UNKNOWN }),
      "No such user",
      "user_not_found",
    ],
    [
      "claim_prize, an unknown draw",
      () => db().call(asUser(player), "claim_prize", { p_draw_id: UNKNOWN, p_choice: "prize" }),
      "Draw not found",
      "draw_not_found",
    ],
    [
      "admin_update_prize_status, an unknown draw",
      () => db().call(asUser(admin), "admin_update_prize_status", { p_draw_id: UNKNOWN, p_status: "verified" }),
      "Draw not found",
      "draw_not_found",
    ],
    [
      "get_top_up, an unknown top-up",
      () => db().call(asUser(player), "get_top_up", { p_id: UNKNOWN }),
      "Top-up not found",
      "top_up_not_found",
    ],
    [
      "admin_get_complaint, an unknown complaint",
      () => db().call(asUser(admin), "admin_get_complaint", { p_id: UNKNOWN }),
      "Complaint not found",
      "complaint_not_found",
    ],
    [
      "admin_review_player_flag, an unknown flag",
      () =>
        db().call(asUser(admin), "admin_review_player_flag", {
          p_flag_id: UNKNOWN,
          p_note: "Checked",
          p_intervention: "note",
        }),
      "No such flag",
      "flag_not_found",
    ],
    [
      "add_credits, an unknown user (the ledger's own check)",
      () => db().call(service, "add_credits", { user_id: UNKNOWN, amount: 5 }),
      "No such user",
      "user_not_found",
    ],
  ] as const)("%s", async (_label, call, message, hint) => {
    expect(await attempt(call())).toEqual({ ok: false, code: "PT404", message, hint });
  });
});

describe("the guard", () => {
  it("no function raises P0002 any more (PostgREST would answer it with 500)", async () => {
    const rows = await db().sql<{ fn: string }>(
      `select p.oid::regprocedure::text as fn
         from pg_proc p
        where p.pronamespace in ('public'::regnamespace, 'private'::regnamespace)
          and p.prosrc ilike '%P0002%'
        order by 1`,
    );
    expect(rows.map((r) => r.fn)).toEqual([]);
  });

  it("every refusal with a *_not_found code raises PT404", async () => {
    const rows = await db().sql<{ fn: string; src: string }>(
      `select p.oid::regprocedure::text as fn, p.prosrc as src
         from pg_proc p
        where p.pronamespace in ('public'::regnamespace, 'private'::regnamespace)`,
    );
    const raises = rows.flatMap((r) =>
      [...r.src.matchAll(/raise\s+exception\s+'(?:[^']|'')*'[^;]*hint\s*=\s*'[a-z_]+_not_found'[^;]*;/gi)].map((m) => ({
        fn: r.fn,
        stmt: m[0].replace(/\s+/g, " "),
      })),
    );
    expect(raises.length).toBeGreaterThan(25);
    expect(raises.filter((r) => !/errcode\s*=\s*'PT404'/.test(r.stmt))).toEqual([]);
  });
});
