// Every refusal carries a stable machine code in the exception's HINT beside its human
// message, so the app switches on codes and never parses messages (ARCHITECTURE §4
// "Errors are codes"). PostgREST (and the embedded backend) return it as `hint`.
import { beforeAll, describe, expect, it } from "vitest";
import { DB_ERROR_CODES } from "@/lib/data/errors";
import { asUser, attempt, dbPerFile, type Caller, service } from "./support";
import { wrongAnswerWait } from "../support/wrong-answer-wait";

const db = dbPerFile();
let admin: string;

beforeAll(async () => {
  admin = await db().createAdmin();
});

/** The message and hint of a call that must be refused. */
async function refusal(p: Promise<unknown>): Promise<{ message: string; hint?: string }> {
  const r = await attempt(p);
  if (r.ok) throw new Error("expected a refusal, the call succeeded");
  return { message: r.message, hint: r.hint };
}

const enter = (uid: string, id: string, quantity: number, answer: string | null = "4") =>
  db().call(asUser(uid), "enter_competition", { p_competition_id: id, p_quantity: quantity, p_answer: answer });

const closeNow = (id: string) =>
  db().sql(
    "update public.competitions set opens_at = now() - interval '2 days', closes_at = now() - interval '1 second' where id = $1",
    [id],
  );

describe("the catalogue", () => {
  it("every raise in every function carries a hint the app knows", async () => {
    const rows = await db().sql<{ fn: string; src: string }>(
      `select p.oid::regprocedure::text as fn, p.prosrc as src
         from pg_proc p
        where p.pronamespace in (select oid from pg_namespace where nspname in ('public', 'private'))`,
    );
    const raises = rows.flatMap((r) =>
      [...r.src.matchAll(/raise\s+exception\s+'(?:[^']|'')*'[^;]*;/gi)].map((m) => ({ fn: r.fn, stmt: m[0] })),
    );
    expect(raises.length).toBeGreaterThan(50);
    const hintOf = (stmt: string) => stmt.match(/hint\s*=\s*'([a-z0-9_]+)'/)?.[1];
    const known: readonly string[] = DB_ERROR_CODES;
    expect(raises.filter((r) => !known.includes(hintOf(r.stmt) ?? "")).map((r) => `${r.fn}: ${r.stmt}`)).toEqual([]);
  });
});

describe("refusals carry their code", () => {
  it("guards: not_authenticated, admin_required", async () => {
    const nobody: Caller = { role: "authenticated" };
    expect(await refusal(db().call(nobody, "get_my_account"))).toEqual({
      message: "User not authenticated",
      hint: "not_authenticated",
    });
    const player = await db().createPlayer();
    expect(await refusal(db().call(asUser(player), "admin_list_competitions"))).toEqual({
      message: "Access denied: Admin privileges required",
      hint: "admin_required",
    });
  });

  it("approval: approval_pending, approval_rejected", async () => {
    const id = await db().createCompetition(admin);
    const pending = await db().createUser({ credits: "10.00" });
    expect(await refusal(enter(pending, id, 1))).toEqual({
      message: "Your account is awaiting approval",
      hint: "approval_pending",
    });
    const rejected = await db().createUser({ credits: "10.00" });
    await db().call(asUser(admin), "admin_reject_user", { p_user_id: rejected, p_reason: "Could not verify" });
    expect(await refusal(enter(rejected, id, 1))).toEqual({
      message: "Your account was not approved, so you cannot enter competitions",
      hint: "approval_rejected",
    });
    expect(await refusal(db().call(asUser(admin), "admin_approve_user", { p_user_id: crypto.randomUUID() }))).toEqual({
      message: "No such user",
      hint: "user_not_found",
    });
  });

  it("entering: every refusal of enter_competition", async () => {
    const id = await db().createCompetition(admin, {
      ticket_price: "2.50",
      total_tickets: 10,
      max_tickets_per_user: 4,
    });
    const draft = await db().createCompetition(admin, {}, false);
    const later = await db().createCompetition(admin, {
      opens_at: "2099-05-01T09:00:00Z",
      closes_at: "2099-06-01T09:00:00Z",
    });
    const rich = await db().createPlayer({ credits: "100.00" });
    const poor = await db().createPlayer({ credits: "3.00" });

    const cases: Array<[Promise<unknown>, string, string]> = [
      [enter(rich, draft, 1), "Competition not found", "competition_not_found"],
      [enter(rich, later, 1), "Entries open on 1 May 2099 at 10:00", "competition_not_yet_open"],
      [enter(rich, id, 1, null), "Answer the question to enter", "answer_required"],
      [enter(rich, id, 0), "Choose at least one ticket", "invalid_input"],
      [enter(rich, id, 5), "You can buy at most 4 more tickets for this competition", "cap_exceeded"],
      [enter(poor, id, 2), "Not enough credit: you need £2.00 more", "insufficient_credit"],
    ];
    for (const [call, message, hint] of cases) expect(await refusal(call), hint).toEqual({ message, hint });

    // A wrong answer is the one refusal enter_competition returns rather than raises (so the miss it records
    // commits), with its code; then the question stays closed to that player for a while.
    const guesser = await db().createPlayer({ credits: "100.00" });
    expect(await enter(guesser, id, 1, "5")).toMatchObject({
      refused: {
        code: "answer_incorrect",
        message: expect.stringMatching(wrongAnswerWait("That answer is not correct.")),
      },
    });
    expect(await refusal(enter(guesser, id, 1))).toEqual({
      message: expect.stringMatching(wrongAnswerWait("You gave a wrong answer.")),
      hint: "skill_answer_cooldown",
    });

    await enter(rich, id, 4);
    expect(await refusal(enter(rich, id, 1))).toEqual({
      message: "You already have the maximum of 4 tickets for this competition",
      hint: "cap_reached",
    });
    await enter(await db().createPlayer({ credits: "100.00" }), id, 4);
    expect(await refusal(enter(poor, id, 3))).toEqual({ message: "Only 2 tickets left", hint: "not_enough_tickets" });
    await enter(await db().createPlayer({ credits: "100.00" }), id, 2);
    expect(await refusal(enter(poor, id, 1))).toEqual({
      message: "This competition has sold out",
      hint: "competition_sold_out",
    });

    const closing = await db().createCompetition(admin);
    await closeNow(closing);
    expect(await refusal(enter(rich, closing, 1))).toEqual({
      message: "This competition has closed",
      hint: "competition_closed",
    });
  });

  it("postal entries: cap_reached for an entrant at the cap", async () => {
    const id = await db().createCompetition(admin, { total_tickets: 10, max_tickets_per_user: 1 });
    const p = await db().createPlayer({ credits: "5.00" });
    await enter(p, id, 1);
    const postal = db().call(asUser(admin), "admin_record_postal_entry", {
      p_competition_id: id,
      p_user_id: p,
      p_name: "Pat Post",
      p_address: "3 Church Road, Bath BA1 1LN",
      p_answer: "4",
    });
    expect(await refusal(postal)).toEqual({
      message: "This entrant already has the maximum of 1 tickets for this competition",
      hint: "cap_reached",
    });
  });

  it("admin: slug_taken, edit_not_allowed, not_a_draft, cancellation, draw_not_found", async () => {
    const id = await db().createCompetition(admin, { total_tickets: 2, max_tickets_per_user: 2 });
    const [{ slug }] = await db().sql<{ slug: string }>("select slug from public.competitions where id = $1", [id]);
    const taken = db().call(asUser(admin), "admin_create_competition", {
      p: {
        title: "Copy",
        slug,
        prize_description: "x",
        prize_value: 1,
        ticket_price: 1,
        total_tickets: 10,
        max_tickets_per_user: 1,
        closes_at: "2099-01-01T00:00:00Z",
      },
    });
    expect(await refusal(taken)).toEqual({
      message: `The address "${slug}" is already used by another competition`,
      hint: "slug_taken",
    });
    expect(
      await refusal(db().call(asUser(admin), "admin_update_competition", { p_id: id, p: { slug: "another-address" } })),
    ).toEqual({
      message: "The address (slug) cannot change once the competition is live",
      hint: "edit_not_allowed",
    });
    expect(await refusal(db().call(asUser(admin), "admin_publish_competition", { p_id: id }))).toEqual({
      message: "Only a draft can be published",
      hint: "not_a_draft",
    });

    await enter(await db().createPlayer({ credits: "5.00" }), id, 2); // sells out; drawn at its draw time
    await db().sql(
      `update public.competitions set opens_at = now() - interval '3 days', closes_at = now() - interval '2 days',
              postal_deadline = now() - interval '1 day', draw_at = now() - interval '1 second' where id = $1`,
      [id],
    );
    await db().call(service, "run_due_draws");
    expect(
      await refusal(db().call(asUser(admin), "admin_cancel_competition", { p_id: id, p_reason: "Too late" })),
    ).toEqual({
      message: "A drawn competition cannot be cancelled",
      hint: "competition_drawn",
    });

    const other = await db().createCompetition(admin);
    await db().call(asUser(admin), "admin_cancel_competition", { p_id: other, p_reason: "Prize withdrawn" });
    expect(
      await refusal(db().call(asUser(admin), "admin_cancel_competition", { p_id: other, p_reason: "Twice" })),
    ).toEqual({
      message: "This competition is already cancelled",
      hint: "already_cancelled",
    });
    expect(await refusal(enter(await db().createPlayer({ credits: "5.00" }), other, 1))).toEqual({
      message: "This competition has been cancelled",
      hint: "competition_cancelled",
    });
    expect(
      await refusal(
        db().call(asUser(admin), "admin_update_prize_status", { p_draw_id: crypto.randomUUID(), p_status: "verified" }),
      ),
    ).toEqual({ message: "Draw not found", hint: "draw_not_found" });
  });
});
