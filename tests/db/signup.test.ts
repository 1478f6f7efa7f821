// Sign-up: the on_auth_user_created trigger gives every new auth user a profile and
// account data with the spec's defaults (§3, §9), refuses under-18s, and honours the
// approval_mode setting; get_my_account recreates rows that have gone missing (§4).
import { describe, expect, it } from "vitest";
import { asUser, service, dbPerFile, toDbError } from "./support";

const db = dbPerFile();

async function dbToday(): Promise<string> {
  const [{ today }] = await db().sql<{ today: string }>("select current_date::text as today");
  return today;
}

async function dateYearsAgo(years: number, plusDays = 0): Promise<string> {
  const [{ d }] = await db().sql<{ d: string }>(
    "select ((current_date - make_interval(years => $1::int))::date + $2::int)::text as d",
    [years, plusDays],
  );
  return d;
}

describe("new user defaults", () => {
  it("gives a new user the spec's defaults and the metadata name", async () => {
    const id = await db().createUser({ email: "ada@labcash.test", meta: { name: "  Ada Lovelace  " } });
    const account = await db().call<Record<string, unknown>>(asUser(id), "get_my_account");
    expect(account).toMatchObject({
      id,
      name: "Ada Lovelace",
      email: "ada@labcash.test",
      email_notifications: true,
      credits: 0,
      role: "user",
      approved: false,
      approved_at: null,
      approved_by: null,
      total_spent: 0,
      total_entries: 0,
      kyc_status: "none",
      is_verified: false,
      verified_at: null,
      age_verified: false,
      metadata: null,
    });
    expect(await db().ledger(id)).toEqual([]);
  });

  it("falls back to the e-mail when the metadata has no usable name", async () => {
    const blank = await db().createUser({ email: "blank@labcash.test", meta: { name: "   " } });
    const none = await db().createUser({ email: "none@labcash.test", meta: {} });
    for (const [id, email] of [
      [blank, "blank@labcash.test"],
      [none, "none@labcash.test"],
    ]) {
      const account = await db().call<{ name: string }>(asUser(id), "get_my_account");
      expect(account.name).toBe(email);
    }
  });

  it("falls back to 'User' when there is neither name nor e-mail (phone sign-up)", async () => {
    const [{ id }] = await db().sql<{ id: string }>(
      "insert into auth.users (phone, raw_user_meta_data) values ('447700900123', '{\"date_of_birth\":\"1990-01-01\"}') returning id",
    );
    const account = await db().call<{ name: string; email: string | null }>(asUser(id), "get_my_account");
    expect(account.name).toBe("User");
    expect(account.email).toBeNull();
  });

  it("cuts a very long metadata name to the 100 characters a name may have", async () => {
    const id = await db().createUser({ meta: { name: "N".repeat(150) } });
    const account = await db().call<{ name: string }>(asUser(id), "get_my_account");
    expect(account.name).toBe("N".repeat(100));
  });

  it("records the sign-up in the activity log", async () => {
    const id = await db().createUser({ email: "logged@labcash.test" });
    const rows = await db().sql("select action, details from public.activity_log where subject_id = $1", [id]);
    expect(rows).toEqual([{ action: "user.signed_up", details: { email: "logged@labcash.test" } }]);
  });

  it("keeps the profile e-mail in step with the auth e-mail", async () => {
    const id = await db().createUser({ email: "old@labcash.test" });
    await db().sql("update auth.users set email = 'new@labcash.test' where id = $1", [id]);
    const account = await db().call<{ email: string }>(asUser(id), "get_my_account");
    expect(account.email).toBe("new@labcash.test");
  });
});

describe("age check", () => {
  it("refuses a date of birth under 18 and creates nothing", async () => {
    const dob = await dateYearsAgo(18, 1); // turns 18 tomorrow
    const error = await db()
      .sql("insert into auth.users (email, raw_user_meta_data) values ('young@labcash.test', $1)", [
        JSON.stringify({ name: "Young", date_of_birth: dob }),
      ])
      .then(() => null, toDbError);
    expect(error).toEqual({ code: "22023", message: "You must be 18 or over to join LabCash", hint: "under_18" });
    expect(await db().sql("select 1 from auth.users where email = 'young@labcash.test'")).toEqual([]);
    expect(await db().sql("select 1 from public.profiles where email = 'young@labcash.test'")).toEqual([]);
  });

  it("accepts someone whose 18th birthday is today and keeps the date", async () => {
    const dob = await dateYearsAgo(18);
    const id = await db().createUser({ meta: { name: "Birthday", date_of_birth: dob } });
    const account = await db().call<{ date_of_birth: string }>(asUser(id), "get_my_account");
    expect(account.date_of_birth).toBe(dob);
    expect(dob.slice(5)).toBe((await dbToday()).slice(5));
  });

  it("refuses a date of birth that is not a date", async () => {
    const error = await db()
      .sql("insert into auth.users (email, raw_user_meta_data) values ('baddate@labcash.test', $1)", [
        JSON.stringify({ date_of_birth: "31/02/1990" }),
      ])
      .then(() => null, toDbError);
    expect(error).toEqual({ code: "22007", message: "Date of birth is not a valid date", hint: "invalid_input" });
  });
});

describe("date of birth required (every way a user is made)", () => {
  /** Inserts a user as the auth server does (sign-up and admin API alike); the refusal, or null. */
  const signUpWith = (email: string, meta: Record<string, unknown>) =>
    db()
      .sql("insert into auth.users (email, raw_user_meta_data) values ($1, $2)", [email, JSON.stringify(meta)])
      .then(() => null, toDbError);

  const nothingFor = async (email: string) => {
    expect(await db().sql("select 1 from auth.users where email = $1", [email])).toEqual([]);
    expect(await db().sql("select 1 from public.profiles where email = $1", [email])).toEqual([]);
  };

  it("refuses a user without a date of birth (missing, null, empty, blank, no metadata) and creates nothing", async () => {
    const required = {
      code: "22023",
      message: "A date of birth is required to join LabCash",
      hint: "date_of_birth_required",
    };
    const cases: Array<[string, Record<string, unknown>]> = [
      ["missing", { name: "No Date" }],
      ["null", { name: "No Date", date_of_birth: null }],
      ["empty", { date_of_birth: "" }],
      ["blank", { date_of_birth: "   " }],
    ];
    for (const [label, meta] of cases) {
      const email = `nodob-${label}@labcash.test`;
      expect(await signUpWith(email, meta), label).toEqual(required);
      await nothingFor(email);
    }
    const bare = await db()
      .sql("insert into auth.users (email) values ('nometa@labcash.test')")
      .then(() => null, toDbError);
    expect(bare).toEqual(required);
    await nothingFor("nometa@labcash.test");
  });

  it("refuses a date of birth that is not a YYYY-MM-DD date at most 120 years ago", async () => {
    const invalid = { code: "22007", message: "Date of birth is not a valid date", hint: "invalid_input" };
    const tooOld = await dateYearsAgo(120, -1);
    const dates = ["infinity", "-infinity", "epoch", "1990-02-31", "0000-01-01", "17/05/1990", "1990-5-17", tooOld];
    for (const [i, dob] of dates.entries()) {
      const email = `bad-date-${i}@labcash.test`;
      expect(await signUpWith(email, { date_of_birth: dob }), dob).toEqual(invalid);
      await nothingFor(email);
    }
    // A number is not a date either (19900517 would otherwise read as 17 May 1990).
    expect(await signUpWith("number@labcash.test", { date_of_birth: 19900517 })).toEqual(invalid);
    await nothingFor("number@labcash.test");
  });

  it("accepts someone born exactly 120 years ago and keeps the date", async () => {
    const dob = await dateYearsAgo(120);
    const id = await db().createUser({ meta: { name: "Old Timer", date_of_birth: dob } });
    const account = await db().call<{ date_of_birth: string }>(asUser(id), "get_my_account");
    expect(account.date_of_birth).toBe(dob);
  });
});

describe("approval mode", () => {
  it("approves at sign-up when approval_mode is 'auto', and not when it is 'manual'", async () => {
    await db().sql("update public.app_settings set value = '\"auto\"' where key = 'approval_mode'");
    try {
      const auto = await db().createUser();
      const account = await db().account(auto);
      expect(account.approved).toBe(true);
      expect(account.approved_at).toBeInstanceOf(Date);
    } finally {
      await db().sql("update public.app_settings set value = '\"manual\"' where key = 'approval_mode'");
    }
    const manual = await db().createUser();
    expect((await db().account(manual)).approved).toBe(false);
  });
});

describe("missing profile rows (spec §4)", () => {
  it("get_my_account recreates a deleted profile and account row with the defaults", async () => {
    const id = await db().createUser({ email: "gone@labcash.test", meta: { name: "Gone Away" } });
    await db().sql("delete from public.profiles where id = $1", [id]);
    await db().sql("delete from public.user_account_data where id = $1", [id]);
    const account = await db().call<Record<string, unknown>>(asUser(id), "get_my_account");
    expect(account).toMatchObject({ id, name: "Gone Away", credits: 0, role: "user", approved: false });
    expect(await db().sql("select 1 from public.profiles where id = $1", [id])).toHaveLength(1);
    expect(await db().sql("select 1 from public.user_account_data where id = $1", [id])).toHaveLength(1);
  });

  it("recreates only the missing profile and keeps the account's money and role", async () => {
    const id = await db().createUser({ role: "admin", approved: true, credits: 12.5 });
    await db().sql("delete from public.profiles where id = $1", [id]);
    const account = await db().call<Record<string, unknown>>(asUser(id), "get_my_account");
    expect(account).toMatchObject({ id, credits: 12.5, role: "admin", approved: true });
  });

  it("rebuilds a lost account row's balance from the ledger, so credits still equal the ledger", async () => {
    const id = await db().createUser({ approved: true, credits: 30 });
    await db().sql("delete from public.user_account_data where id = $1", [id]);
    const account = await db().call<{ credits: number }>(asUser(id), "get_my_account");
    expect(account.credits).toBe(30);
    expect(await db().call(service, "get_credit_balance", { user_id: id })).toBe("30.00");
  });
});
