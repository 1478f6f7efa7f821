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
