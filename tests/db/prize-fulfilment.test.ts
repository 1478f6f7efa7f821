// A prize's fulfilment as one state machine: awaiting claim -> claimed -> verified ->
// delivered, each step with its date and delivered with its proof reference. SQL owns the transitions
// (private.prize_move) and a check constraint keeps the status and its dates in step, whoever writes.
import { describe, expect, it } from "vitest";
import { anon, asUser, attempt, dbPerFile } from "./support";

const db = dbPerFile();

type Prize = {
  draw_id: string;
  prize_status: string;
  prize_choice: string | null;
  delivery_address: string | null;
  claimed_at: string | null;
  verified_at: string | null;
  delivered_at: string | null;
  proof_of_delivery: string | null;
};

const ADDRESS = "4 Mill Lane, Harrogate HG1 2AB";
const PASSPORT = { p_document_type: "passport", p_document_last_four: "1234" };

describe("prize fulfilment steps", () => {
  it("goes claimed -> verified -> delivered one step at a time, each with its date, delivered with its proof", async () => {
    const admin = await db().createAdmin();
    const winner = await db().createPlayer({ credits: "5.00" });
    const { drawId } = await db().wonBy(admin, winner, { cash_alternative: 60 });
    const move = (status: string, proof: string | null = null) =>
      db().rpc<Prize>(asUser(admin), "admin_update_prize_fulfilment", {
        p_draw_id: drawId,
        p_status: status,
        p_proof_of_delivery: proof,
        ...(status === "verified" ? PASSPORT : {}),
      });

    // Nothing can be verified or delivered before a claim.
    expect((await move("verified")).error).toMatchObject({ hint: "prize_not_claimed" });
    expect((await move("delivered", "RM1")).error).toMatchObject({ hint: "prize_not_verified" });

    // The winner claims the prize: an address is needed, with a UK postcode.
    const claim = (choice: string, address: string | null = null) =>
      db().rpc<Prize>(asUser(winner), "claim_prize", {
        p_draw_id: drawId,
        p_choice: choice,
        p_delivery_address: address,
      });
    expect((await claim("prize")).error).toMatchObject({ hint: "delivery_address_required" });
    expect((await claim("prize", "Somewhere nice")).error).toMatchObject({ hint: "delivery_address_required" });
    expect((await claim("prize", ADDRESS)).data).toMatchObject({
      prize_status: "claimed",
      prize_choice: "prize",
      delivery_address: ADDRESS,
    });
    // Changing to the cash drops the address.
    expect((await claim("cash")).data).toMatchObject({
      prize_status: "claimed",
      prize_choice: "cash",
      delivery_address: null,
    });

    // Claimed cannot jump to delivered.
    expect((await move("delivered", "RM1")).error).toMatchObject({ hint: "prize_not_verified" });
    const verified = await move("verified");
    expect(verified.data).toMatchObject({ prize_status: "verified" });
    expect(verified.data?.claimed_at).toBeTruthy();
    expect(verified.data?.verified_at).toBeTruthy();
    expect(verified.data?.delivered_at).toBeNull();
    expect((await claim("prize", ADDRESS)).error).toMatchObject({ hint: "claim_closed" });

    expect((await move("delivered")).error).toMatchObject({ hint: "invalid_input" });
    const delivered = await move("delivered", "BACS-2026-0042");
    expect(delivered.data).toMatchObject({ prize_status: "delivered", proof_of_delivery: "BACS-2026-0042" });
    expect(delivered.data?.delivered_at).toBeTruthy();

    // The winner sees every step's date and the proof reference.
    const [mine] = (await db().call<Prize[]>(asUser(winner), "get_my_prizes")).filter((p) => p.draw_id === drawId);
    expect(mine).toMatchObject({
      prize_status: "delivered",
      prize_choice: "cash",
      proof_of_delivery: "BACS-2026-0042",
    });
    expect([mine.claimed_at, mine.verified_at, mine.delivered_at].every(Boolean)).toBe(true);

    // A step back corrects a mistake and clears the later dates.
    const back = await move("claimed");
    expect(back.data).toMatchObject({ prize_status: "claimed", verified_at: null, delivered_at: null });
    expect(back.data?.claimed_at).toBeTruthy();
  });

  it("an admin records a claim made by letter or phone (a postal winner has no account)", async () => {
    const admin = await db().createAdmin();
    const winner = await db().createPlayer({ credits: "5.00" });
    const { drawId } = await db().wonBy(admin, winner);
    const claimed = await db().call<Prize>(asUser(admin), "admin_update_prize_fulfilment", {
      p_draw_id: drawId,
      p_status: "claimed",
    });
    expect(claimed).toMatchObject({ prize_status: "claimed" });
    expect(claimed.claimed_at).toBeTruthy();
  });

  it("keeps the status and its dates in step whoever writes: the badge can never say more than the dates", async () => {
    const admin = await db().createAdmin();
    const winner = await db().createPlayer({ credits: "5.00" });
    const { drawId } = await db().wonBy(admin, winner);
    for (const set of [
      "prize_status = 'delivered'",
      "prize_status = 'verified'",
      "prize_status = 'claimed'",
      "prize_status = 'delivered', claimed_at = now(), verified_at = now(), delivered_at = now()", // no proof
      "verified_at = now()",
    ]) {
      const refused = await attempt(db().sql(`update public.draws set ${set} where id = $1`, [drawId]));
      expect(refused, set).toMatchObject({ ok: false });
    }
  });

  it("the winners list shows each prize's progress, never the address or the proof; only the winner claims", async () => {
    const admin = await db().createAdmin();
    const winner = await db().createPlayer({ credits: "5.00" });
    const { drawId } = await db().wonBy(admin, winner);
    await db().call(asUser(winner), "claim_prize", {
      p_draw_id: drawId,
      p_choice: "prize",
      p_delivery_address: ADDRESS,
    });
    const winners = await db().call<Record<string, unknown>[]>(anon, "list_winners");
    const row = winners.find((w) => w.draw_id === drawId)!;
    expect(row).toMatchObject({ prize_status: "claimed", delivered_at: null });
    expect(JSON.stringify(row)).not.toContain("Mill Lane");
    expect(row).not.toHaveProperty("proof_of_delivery");

    const other = await db().createPlayer();
    expect(
      (
        await db().rpc(asUser(other), "claim_prize", {
          p_draw_id: drawId,
          p_choice: "prize",
          p_delivery_address: ADDRESS,
        })
      ).error,
    ).toMatchObject({ hint: "not_the_winner" });
    expect(await db().call<Prize[]>(asUser(other), "get_my_prizes")).toEqual([]);
  });

  it("the win e-mail points to the claim page", async () => {
    const admin = await db().createAdmin();
    const winner = await db().createPlayer({ credits: "5.00" });
    await db().wonBy(admin, winner);
    const [mail] = await db().sql<{ body: string }>(
      "select body_text as body from public.mail_outbox where to_user = $1 and kind = 'competition_won'",
      [winner],
    );
    expect(mail.body).toContain("Claim your prize");
    expect(mail.body).toContain("/account/prizes");
  });
});

type IdentityCheck = {
  document_type: string;
  document_last_four: string;
  note: string | null;
  checked_by: string | null;
  checked_at: string;
};

describe("the identity check behind a verified claim", () => {
  /** A drawn prize its winner has claimed (the cash), and the admin who fulfils it. */
  async function claimedPrize() {
    const admin = await db().createAdmin();
    const winner = await db().createPlayer({ credits: "5.00" });
    const { drawId } = await db().wonBy(admin, winner, { cash_alternative: 60 });
    await db().call(asUser(winner), "claim_prize", { p_draw_id: drawId, p_choice: "cash" });
    const verify = (check: Record<string, unknown>, caller = asUser(admin)) =>
      db().rpc<Prize & { identity_check: IdentityCheck | null }>(caller, "admin_update_prize_fulfilment", {
        p_draw_id: drawId,
        p_status: "verified",
        ...check,
      });
    return { admin, winner, drawId, verify };
  }

  it("is required before verified, by either fulfilment function, and each part is checked", async () => {
    const { admin, winner, drawId, verify } = await claimedPrize();
    const required = { hint: "identity_check_required", message: expect.stringMatching(/^Record the identity check/) };
    expect((await verify({})).error).toMatchObject(required);
    expect(
      (await db().rpc(asUser(admin), "admin_update_prize_status", { p_draw_id: drawId, p_status: "verified" })).error,
    ).toMatchObject(required);

    for (const [check, message] of [
      [{ p_document_last_four: "1234" }, /^Choose the document you checked/],
      [{ p_document_type: "birth_certificate", p_document_last_four: "1234" }, /^Choose the document you checked/],
      [{ p_document_type: "passport" }, /^Give the last four letters or digits/],
      [{ p_document_type: "passport", p_document_last_four: "123" }, /^Give the last four letters or digits/],
      // The whole number is refused, not cut down: only the last four are ever kept.
      [{ p_document_type: "passport", p_document_last_four: "533401234" }, /^Give the last four letters or digits/],
      [{ p_document_type: "passport", p_document_last_four: "12-4" }, /^Give the last four letters or digits/],
      [{ p_document_type: "other", p_document_last_four: "1234" }, /^Say in the note which document/],
      [
        { p_document_type: "passport", p_document_last_four: "1234", p_identity_note: "x".repeat(501) },
        /^Keep the identity check's note to 500 characters/,
      ],
    ] as const) {
      expect((await verify(check)).error, JSON.stringify(check)).toMatchObject({ hint: "invalid_input", message });
    }
    // Only with the step to verified.
    expect(
      (
        await db().rpc(asUser(admin), "admin_update_prize_fulfilment", {
          p_draw_id: drawId,
          p_status: "claimed",
          ...PASSPORT,
        })
      ).error,
    ).toMatchObject({ hint: "invalid_input", message: "An identity check is recorded only with the step to verified" });

    // Nothing was recorded by any refusal, and the prize is still claimed.
    expect(await db().sql("select 1 from public.prize_identity_checks where draw_id = $1", [drawId])).toEqual([]);
    const [{ prize_status }] = await db().sql<{ prize_status: string }>(
      "select prize_status from public.draws where id = $1",
      [drawId],
    );
    expect(prize_status).toBe("claimed");

    // A player may not verify, even their own prize.
    expect((await verify(PASSPORT, asUser(winner))).error).toMatchObject({ hint: "admin_required" });
  });

  it("records the document, its last four, the note, and who and when from SQL; shown to admins and in the log", async () => {
    const { admin, winner, drawId, verify } = await claimedPrize();
    const [{ name: adminName }] = await db().sql<{ name: string }>("select name from public.profiles where id = $1", [
      admin,
    ]);
    const verified = await verify({
      p_document_type: "driving_licence",
      p_document_last_four: " 9ab4 ",
      p_identity_note: "  Checked on a video call ",
    });
    expect(verified.error).toBeNull();
    expect(verified.data).toMatchObject({
      prize_status: "verified",
      identity_check: {
        document_type: "driving_licence",
        document_last_four: "9AB4",
        note: "Checked on a video call",
        checked_by: adminName,
      },
    });

    const [stored] = await db().sql<{ checked_by: string; same_time: boolean }>(
      `select v.checked_by, v.checked_at = d.verified_at as same_time
         from public.prize_identity_checks v join public.draws d on d.id = v.draw_id where v.draw_id = $1`,
      [drawId],
    );
    expect(stored).toEqual({ checked_by: admin, same_time: true });

    const [logged] = await db().sql<{ actor_id: string; details: unknown }>(
      "select actor_id, details from public.activity_log where action = 'prize.identity_checked' and subject_id = $1",
      [drawId],
    );
    expect(logged).toMatchObject({
      actor_id: admin,
      details: { document_type: "driving_licence", document_last_four: "9AB4", note: "Checked on a video call" },
    });

    // Admins read it (the list, and the table under its policy); nobody else does.
    const [listed] = (
      await db().call<Array<Prize & { identity_check: IdentityCheck }>>(asUser(admin), "admin_list_prize_fulfilment")
    ).filter((p) => p.draw_id === drawId);
    expect(listed.identity_check).toMatchObject({ document_last_four: "9AB4", checked_by: adminName });
    const rows = (who: string) =>
      db().as(asUser(who), "select * from public.prize_identity_checks where draw_id = $1", [drawId]);
    expect((await rows(admin)).rows).toHaveLength(1);
    expect((await rows(winner)).rows).toEqual([]);
    expect((await db().as(anon, "select * from public.prize_identity_checks")).error).toMatchObject({ code: "42501" });
    expect(
      (
        await db().as(
          asUser(admin),
          "insert into public.prize_identity_checks (draw_id, document_type, document_last_four) values ($1, 'passport', '0000')",
          [drawId],
        )
      ).error,
    ).toMatchObject({ code: "42501" });
  });

  it("a step back undoes the verification, so verifying again needs a fresh check", async () => {
    const { admin, drawId, verify } = await claimedPrize();
    expect((await verify(PASSPORT)).error).toBeNull();
    const back = await db().call<Prize & { identity_check: IdentityCheck | null }>(
      asUser(admin),
      "admin_update_prize_fulfilment",
      { p_draw_id: drawId, p_status: "claimed" },
    );
    expect(back).toMatchObject({ prize_status: "claimed", identity_check: null });
    // The earlier check came before the step back, so it no longer counts.
    expect(
      (await db().rpc(asUser(admin), "admin_update_prize_status", { p_draw_id: drawId, p_status: "verified" })).error,
    ).toMatchObject({ hint: "identity_check_required" });
    const again = await verify({ p_document_type: "national_identity_card", p_document_last_four: "X7Q2" });
    expect(again.data?.identity_check).toMatchObject({ document_type: "national_identity_card" });
    expect(await db().sql("select 1 from public.prize_identity_checks where draw_id = $1", [drawId])).toHaveLength(2);
  });
});
