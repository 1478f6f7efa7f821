// Referral credit: an invite code per player; a sign-up carrying one is recorded; when the
// friend is approved and has a first paid entry (whichever comes last) both get referral_credit once, unless a
// rule refuses it with a reason. Concurrency on a real PostgreSQL 15 server: referrals-pg15.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { anon, asUser, attempt, dbPerFile, service } from "./support";

const db = dbPerFile();

type Referral = {
  id: string;
  status: string;
  reason: string | null;
  reason_text: string | null;
  amount: number | null;
};
type Mine = {
  code: string;
  credit: number;
  joined: number;
  credited: number;
  credited_total: number;
  friends: Referral[];
  invited: Referral | null;
};

let admin: string;
let competition: string;
let n = 0;

beforeAll(async () => {
  admin = await db().createAdmin();
  competition = await db().createCompetition(admin, { total_tickets: 1000, max_tickets_per_user: 100 });
});

async function inviter(): Promise<{ id: string; code: string; email: string }> {
  n += 1;
  const email = `inviter${n}@labcash.test`;
  const id = await db().createUser({ email, approved: true, credits: 10 });
  const mine = await db().call<Mine>(asUser(id), "get_my_referrals");
  return { id, code: mine.code, email };
}

/** A sign-up through the form's metadata; not approved (as every new account). */
const signUpWith = (code: string, email = `friend${++n}@labcash.test`) =>
  db().createUser({ email, meta: { name: "Fran Friend", date_of_birth: "1990-01-01", referral_code: code } });

const approve = (id: string) => db().call(asUser(admin), "admin_approve_user", { p_user_id: id });
const topUp = (id: string) => db().call(service, "add_credits", { user_id: id, amount: 10, transaction_amount: 10 });
const enter = (id: string) =>
  db().call(asUser(id), "enter_competition", { p_competition_id: competition, p_quantity: 1, p_answer: "4" });
const referralOf = async (friend: string) =>
  (
    await db().sql<Referral & { amount: string | null }>("select * from public.referrals where referred_id = $1", [
      friend,
    ])
  )[0];
const referralRows = (id: string) =>
  db().sql<{ amount: string; reference: string; kind: string }>(
    "select amount, reference, kind from public.credit_ledger where user_id = $1 and reference like 'referral:%'",
    [id],
  );
const audit = (friend: string) =>
  db().sql<{ action: string; details: Record<string, unknown> }>(
    "select action, details from public.activity_log where subject_id = $1 and action like 'referral.%' order by id",
    [friend],
  );

let ticket = 900;
/** A paid entry written as the owner: the state an approval withdrawn after a purchase leaves. */
const paidEntryWhileUnapproved = (id: string) =>
  db().sql(
    `insert into public.entries (competition_id, user_id, kind, quantity, unit_price, amount, first_ticket)
     values ($1, $2, 'paid', 1, 1, 1, $3)`,
    [competition, id, ++ticket],
  );

/** A friend approved, topped up and ready to make their first paid entry. */
async function readyFriend(code: string) {
  const friend = await signUpWith(code);
  await approve(friend);
  await topUp(friend);
  return friend;
}

describe("the invite code", () => {
  it("is stable per player, 10 characters of Crockford base 32, and neither their id nor e-mail", async () => {
    const a = await inviter();
    expect(a.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{10}$/);
    expect((await db().call<Mine>(asUser(a.id), "get_my_referrals")).code).toBe(a.code);
    expect(a.id.toUpperCase()).not.toContain(a.code);
    const b = await inviter();
    expect(b.code).not.toBe(a.code);
  });

  it("is checked for the sign-up form by the server alone: unknown and self-referral refused with their codes", async () => {
    const a = await inviter();
    expect(
      await db().call(service, "check_referral_code", { p_code: ` ${a.code.toLowerCase()} `, p_email: "x@y.test" }),
    ).toEqual({
      code: a.code,
    });
    expect(
      await attempt(db().call(service, "check_referral_code", { p_code: "ZZZZZZZZZZ", p_email: "x@y.test" })),
    ).toMatchObject({
      ok: false,
      hint: "referral_code_unknown",
    });
    expect(
      await attempt(db().call(service, "check_referral_code", { p_code: a.code, p_email: a.email })),
    ).toMatchObject({
      ok: false,
      hint: "referral_self",
    });
    for (const caller of [anon, asUser(a.id), asUser(admin)]) {
      const res = await db().rpc(caller, "check_referral_code", { p_code: a.code, p_email: "x@y.test" });
      expect(res.error).not.toBeNull();
    }
  });

  it("treats Gmail's dots, googlemail.com and plus-addressing as the same inbox", async () => {
    const [{ same }] = await db().sql<{ same: boolean[] }>(
      `select array[
         private.email_identity('Jo.Bloggs+win@GoogleMail.com') = private.email_identity('jobloggs@gmail.com'),
         private.email_identity('jo+labcash@example.co.uk') = private.email_identity('JO@example.co.uk'),
         private.email_identity('j.o@example.co.uk') = private.email_identity('jo@example.co.uk')] as same`,
    );
    expect(same).toEqual([true, true, false]);
  });
});

describe("the invite link's page", () => {
  type Invitation = { first_name: string | null; credit: number };
  const invitation = (code: string) => db().call<Invitation[]>(anon, "get_referral_invitation", { p_code: code });

  /** An approved inviter named `name`: their code. */
  async function namedInviter(name: string): Promise<{ id: string; code: string }> {
    const id = await db().createUser({ email: `named${++n}@labcash.test`, name, approved: true });
    return { id, code: (await db().call<Mine>(asUser(id), "get_my_referrals")).code };
  }

  it("tells anyone the inviter's first name and the credit for a code sign-up accepts, and nothing for any other", async () => {
    const priya = await namedInviter("  Priya   Patel ");
    expect(await invitation(priya.code)).toEqual([{ first_name: "Priya", credit: 2.5 }]);
    expect(await invitation(` ${priya.code.toLowerCase().slice(0, 5)}-${priya.code.slice(5)} `)).toEqual([
      { first_name: "Priya", credit: 2.5 },
    ]);
    for (const other of ["ZZZZZZZZZZ", "", "%", `${priya.code}%`, priya.id])
      expect(await invitation(other), other).toEqual([]);
    expect(await db().call(asUser(admin), "get_referral_invitation", { p_code: priya.code })).toEqual([
      { first_name: "Priya", credit: 2.5 },
    ]);

    // A deleted inviter's code is no longer accepted, so it says nothing.
    await db().sql("update public.user_account_data set deleted_at = now() where id = $1", [priya.id]);
    expect(await invitation(priya.code)).toEqual([]);
  });

  it("leaves the name out for an unapproved inviter, one shown by initials, or a name that is not a name", async () => {
    const unapproved = await db().createUser({ email: `unapproved${++n}@labcash.test`, name: "Una Known" });
    const unapprovedCode = (await db().call<Mine>(asUser(unapproved), "get_my_referrals")).code;
    expect(await invitation(unapprovedCode)).toEqual([{ first_name: null, credit: 2.5 }]);

    const initials = await namedInviter("Iris Initials");
    await db().call(asUser(initials.id), "set_initials_only", { p_initials_only: true });
    expect(await invitation(initials.code)).toEqual([{ first_name: null, credit: 2.5 }]);

    for (const name of ["www.win-free.example now", "£5-free!", "A".repeat(31)]) {
      const odd = await namedInviter(name);
      expect(await invitation(odd.code), name).toEqual([{ first_name: null, credit: 2.5 }]);
    }
    for (const name of ["Siobhán O'Neill", "Anne-Marie Duff", "Zoë"]) {
      const fine = await namedInviter(name);
      expect(await invitation(fine.code), name).toEqual([{ first_name: name.split(" ")[0], credit: 2.5 }]);
    }
  });
});

describe("recording at sign-up", () => {
  it("records a pending referral and audits it; the sign-up never fails over its code", async () => {
    const a = await inviter();
    const friend = await signUpWith(a.code.toLowerCase());
    expect(await referralOf(friend)).toMatchObject({ referrer_id: a.id, status: "pending", reason: null });
    expect((await audit(friend)).map((r) => r.action)).toEqual(["referral.recorded"]);

    const stranger = await signUpWith("NOTACODE00");
    expect(await referralOf(stranger)).toBeUndefined();
    expect(await audit(stranger)).toEqual([
      { action: "referral.refused", details: { reason: "referral_code_unknown", code: "NOTACODE00" } },
    ]);
  });

  it("refuses a self-referral (the inviter's own inbox) with its reason and never credits it", async () => {
    const a = await inviter();
    const [local, domain] = a.email.split("@");
    const self = await signUpWith(a.code, `${local}+again@${domain}`);
    expect(await referralOf(self)).toMatchObject({ status: "refused", reason: "self_referral" });
    expect((await audit(self)).map((r) => r.action)).toEqual(["referral.refused"]);
    await approve(self);
    await topUp(self);
    await enter(self);
    expect(await referralRows(self)).toEqual([]);
    expect(await referralRows(a.id)).toEqual([]);
  });
});

describe("crediting", () => {
  it("credits both once, when the friend is approved and makes a first paid entry; not for later entries", async () => {
    const a = await inviter();
    const friend = await readyFriend(a.code);
    expect((await referralOf(friend)).status).toBe("pending");
    await enter(friend);
    await enter(friend);
    expect(await referralOf(friend)).toMatchObject({ status: "credited", amount: "2.50" });
    for (const id of [a.id, friend]) {
      expect(await referralRows(id)).toEqual([
        { amount: "2.50", kind: "bonus", reference: `referral:${(await referralOf(friend)).id}` },
      ]);
    }
    expect((await audit(friend)).map((r) => r.action)).toEqual(["referral.recorded", "referral.credited"]);
    expect(await db().ledgerMismatches()).toEqual([]);
    const mine = await db().call<Mine>(asUser(a.id), "get_my_referrals");
    expect(mine).toMatchObject({ joined: 1, credited: 1, credited_total: 2.5, credit: 2.5 });
    expect(mine.friends).toEqual([expect.objectContaining({ status: "credited", amount: 2.5 })]);
    expect((await db().call<Mine>(asUser(friend), "get_my_referrals")).invited).toMatchObject({ status: "credited" });
  });

  it("waits for approval when the paid entry came first (an approval withdrawn and given again)", async () => {
    const a = await inviter();
    const friend = await signUpWith(a.code);
    await paidEntryWhileUnapproved(friend);
    expect((await referralOf(friend)).status).toBe("pending");
    await approve(friend);
    expect((await referralOf(friend)).status).toBe("credited");
  });

  it("waits for a paid entry: approval alone, or a free postal entry, credits nothing", async () => {
    const a = await inviter();
    const friend = await readyFriend(a.code);
    await db().call(asUser(admin), "admin_record_postal_entry", {
      p_competition_id: competition,
      p_user_id: friend,
      p_name: "Fran Friend",
      p_address: "1 High Street, Harrogate HG1 2AB",
      p_answer: "4",
    });
    expect((await referralOf(friend)).status).toBe("pending");
    expect(await referralRows(friend)).toEqual([]);
    expect(await referralRows(a.id)).toEqual([]);
  });

  const intervene = (id: string, kind: string) =>
    db().call(asUser(admin), "admin_record_intervention", { p_user_id: id, p_kind: kind, p_note: "Referral test" });
  const blocks: [string, (id: string) => Promise<unknown>][] = [
    ["on_break", (id) => db().call(asUser(id), "take_break", { p_period: "1 week" })],
    ["self_excluded", (id) => db().call(asUser(id), "self_exclude", { p_months: 6 })],
    ["restricted", (id) => intervene(id, "restricted")],
    ["account_closed", (id) => intervene(id, "closed")],
  ];
  for (const [block, apply] of blocks) {
    it(`refuses with the reason when the inviter is ${block}, and credits neither`, async () => {
      const a = await inviter();
      const friend = await readyFriend(a.code);
      await apply(a.id);
      await enter(friend);
      expect(await referralOf(friend)).toMatchObject({ status: "refused", reason: `referrer_${block}` });
      expect(await referralRows(friend)).toEqual([]);
      expect(await referralRows(a.id)).toEqual([]);
      expect((await audit(friend)).at(-1)).toMatchObject({
        action: "referral.refused",
        details: { reason: `referrer_${block}` },
      });
    });

    it(`refuses with the reason when the friend is ${block} at approval, and credits neither`, async () => {
      const a = await inviter();
      const friend = await signUpWith(a.code);
      // A paid entry made before an approval that was then withdrawn: the approval is what completes it.
      await paidEntryWhileUnapproved(friend);
      await apply(friend);
      await approve(friend);
      expect(await referralOf(friend)).toMatchObject({ status: "refused", reason: `referred_${block}` });
      expect(await referralRows(friend)).toEqual([]);
      expect(await referralRows(a.id)).toEqual([]);
    });
  }

  it("refuses over the inviter's monthly cap with the reason; 0 turns referral credit off", async () => {
    await db().call(asUser(await superAdmin()), "admin_update_settings", { p: { referral_monthly_cap: 1 } });
    try {
      const a = await inviter();
      const first = await readyFriend(a.code);
      const second = await readyFriend(a.code);
      await enter(first);
      await enter(second);
      expect((await referralOf(first)).status).toBe("credited");
      expect(await referralOf(second)).toMatchObject({ status: "refused", reason: "over_cap" });
      expect(await referralRows(second)).toEqual([]);
      expect(await referralRows(a.id)).toHaveLength(1);
      const mine = await db().call<Mine>(asUser(a.id), "get_my_referrals");
      expect(mine).toMatchObject({ joined: 2, credited: 1 });
      expect(mine.friends[0]).toMatchObject({
        status: "refused",
        reason_text: expect.stringContaining("most friends"),
      });
    } finally {
      await db().call(asUser(await superAdmin()), "admin_update_settings", { p: { referral_monthly_cap: 10 } });
    }
  });

  it("pays the amount the setting says at the time of crediting", async () => {
    await db().call(asUser(await superAdmin()), "admin_update_settings", { p: { referral_credit: 5 } });
    try {
      const a = await inviter();
      const friend = await readyFriend(a.code);
      await enter(friend);
      expect((await referralRows(a.id)).map((r) => r.amount)).toEqual(["5.00"]);
    } finally {
      await db().call(asUser(await superAdmin()), "admin_update_settings", { p: { referral_credit: 2.5 } });
    }
  });
});

let superAdminId: string | undefined;
async function superAdmin() {
  superAdminId ??= await db().createUser({ name: "Sol Super", role: "super_admin", approved: true });
  return superAdminId;
}

describe("settings", () => {
  it("are checked, and only a super admin changes them", async () => {
    expect(
      await attempt(db().call(asUser(admin), "admin_update_settings", { p: { referral_credit: 3 } })),
    ).toMatchObject({
      ok: false,
      hint: "super_admin_required",
    });
    for (const p of [
      { referral_credit: 0 },
      { referral_credit: 1.234 },
      { referral_monthly_cap: 2.5 },
      { referral_monthly_cap: -1 },
    ]) {
      expect(
        await attempt(db().call(asUser(await superAdmin()), "admin_update_settings", { p })),
        JSON.stringify(p),
      ).toMatchObject({
        ok: false,
        hint: "invalid_input",
      });
    }
    const settings = await db().call<{ settings: Record<string, unknown> }>(asUser(admin), "admin_get_settings");
    expect(settings.settings).toMatchObject({ referral_credit: 2.5, referral_monthly_cap: 10 });
  });
});

describe("who sees what", () => {
  it("a player reads only their own referrals and codes; admins read every one on the user page", async () => {
    const a = await inviter();
    const friend = await signUpWith(a.code);
    const other = await db().createPlayer();
    const seen = await db().as<{ id: string }>(asUser(other), "select id from public.referrals");
    expect(seen.rows).toEqual([]);
    expect(
      (await db().as(asUser(other), "select code from public.referral_codes where user_id = $1", [a.id])).rows,
    ).toEqual([]);
    expect((await db().as(asUser(friend), "select referred_id from public.referrals")).rows).toEqual([
      { referred_id: friend },
    ]);
    expect((await db().as(anon, "select id from public.referrals")).error).not.toBeNull();

    expect(await attempt(db().call(asUser(other), "admin_get_user_referrals", { p_user: a.id }))).toMatchObject({
      ok: false,
      hint: "admin_required",
    });
    const view = await db().call<{ code: string; referred: { user_id: string; name: string; status: string }[] }>(
      asUser(admin),
      "admin_get_user_referrals",
      { p_user: a.id },
    );
    expect(view).toMatchObject({
      code: a.code,
      referred: [{ user_id: friend, name: "Fran Friend", status: "pending" }],
    });
    const friendView = await db().call<{ referred_by: { user_id: string } }>(
      asUser(admin),
      "admin_get_user_referrals",
      {
        p_user: friend,
      },
    );
    expect(friendView.referred_by).toMatchObject({ user_id: a.id, status: "pending" });
    expect((await db().rpc(anon, "get_my_referrals")).error).not.toBeNull();
  });

  it("the cron's settle_referrals is the server's alone and finishes what is due", async () => {
    expect((await db().rpc(asUser(admin), "settle_referrals")).error).not.toBeNull();
    expect(await db().call(service, "settle_referrals")).toMatchObject({ checked: expect.any(Number) });
  });
});
