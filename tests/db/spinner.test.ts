// LabSpinner in the database: spin credits counted from net ticket spend (earned exactly at
// £10 and £30, not at £9.99 or £29.99), refunds and postal grants; every refusal (blocks, no credit, the wheel
// off); prizes paid into the ledger once; the provably fair derivation (the recorded spin is what
// private.spin_derive gives once the server seed is revealed, and the seed matches the hash shown before);
// 100,000 derived spins against the weights by chi-square; the admin wheel editor's validation and versions;
// and who may read what. The race of 50 simultaneous spins is in spinner-pg15.test.ts.
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { chiSquareTest } from "@/lib/spinner/chi-square";
import { anon, asUser, attempt, becomeCaller, dbPerFile, rpcSql, type Caller } from "./support";

const db = dbPerFile();

type SpinCredits = {
  ticket_spend: number;
  earned: number;
  granted: number;
  used: number;
  earned_available: number;
  postal_available: number;
  available: number;
  spend_per_spin: number;
  toward_next: number;
  to_next: number;
};
type Seed = {
  id: number;
  server_seed_hash: string;
  client_seed: string;
  next_nonce: number;
  revealed_at: string | null;
  server_seed: string | null;
};
type Spin = {
  id: number;
  seed_id: number;
  client_seed: string;
  nonce: number;
  wheel_id: number;
  attempt: number;
  value: number;
  segment_position: number;
  label: string;
  prize_credits: number;
};
type SpinResult = Spin & { server_seed_hash: string; balance: number; credits: SpinCredits };
type MySpinner = {
  enabled: boolean;
  credits: SpinCredits;
  block: { code: string; message: string } | null;
  seed: Seed;
  balance: number;
  recent_spins: Spin[];
};
type Segment = { label: string; colour: string; label_colour: string; prize_credits: number; weight: number };
type Wheel = {
  wheel_id: number;
  total_weight: number;
  expected_prize: number;
  segments: Array<Segment & { position: number; probability: number }>;
};

let admin: string;
beforeAll(async () => {
  admin = await db().createAdmin();
});

const spin = (uid: string) => db().call<SpinResult>(asUser(uid), "spin_wheel");
const mySpinner = (uid: string) => db().call<MySpinner>(asUser(uid), "get_my_spinner");
const creditsOf = async (uid: string) => (await mySpinner(uid)).credits;
const buy = (uid: string, competition: string, quantity: number) =>
  db().call(asUser(uid), "enter_competition", { p_competition_id: competition, p_quantity: quantity, p_answer: "4" });
const grantPostal = (uid: string, reference = "Postcard received") =>
  db().call<{ grant_id: number; credits: SpinCredits }>(asUser(admin), "admin_record_spin_request", {
    p_user_id: uid,
    p_reference: reference,
  });
/** A published competition whose tickets cost `price` pounds. */
const competitionAt = (price: number) => db().createCompetition(admin, { ticket_price: price, total_tickets: 1000 });
const spinRows = (uid: string) =>
  db().sql<{ id: string; nonce: number; wheel_id: string }>(
    "select id, nonce, wheel_id from public.spinner_spins where user_id = $1 order by id",
    [uid],
  );

/** A refusal with its detail (the field an invalid_input names), which DbError leaves out. */
async function refusalOf(caller: Caller, fn: string, args: Record<string, unknown>) {
  const [sql, params] = rpcSql(fn, args);
  try {
    await db().pg.transaction(async (tx) => {
      await becomeCaller(tx, caller);
      await tx.query(sql, params);
    });
  } catch (e) {
    const { code, hint, detail } = e as { code?: string; hint?: string; detail?: string };
    return { code, hint, detail };
  }
  throw new Error(`${fn} was not refused`);
}

const credits = (c: Partial<SpinCredits>) => expect.objectContaining(c);

describe("spin credits: one per £10 of net ticket spend, plus postal grants, less spins", () => {
  it("are earned exactly at £10 and £30 of ticket spend, not at £9.99 or £29.99", async () => {
    const [at333, at250] = [await competitionAt(3.33), await competitionAt(2.5)];
    const shortOfEach = await db().createPlayer({ credits: 100 });
    const onEach = await db().createPlayer({ credits: 100 });
    expect(await creditsOf(shortOfEach)).toEqual({
      ticket_spend: 0,
      earned: 0,
      granted: 0,
      used: 0,
      earned_available: 0,
      postal_available: 0,
      available: 0,
      spend_per_spin: 10,
      toward_next: 0,
      to_next: 10,
    });

    await buy(shortOfEach, at333, 3); // £9.99
    expect(await creditsOf(shortOfEach)).toEqual(
      credits({ ticket_spend: 9.99, earned: 0, available: 0, toward_next: 9.99, to_next: 0.01 }),
    );
    expect((await attempt(spin(shortOfEach))).ok).toBe(false);
    await buy(shortOfEach, at250, 8); // + £20 = £29.99
    expect(await creditsOf(shortOfEach)).toEqual(
      credits({ ticket_spend: 29.99, earned: 2, available: 2, toward_next: 9.99, to_next: 0.01 }),
    );

    await buy(onEach, at250, 4); // £10
    expect(await creditsOf(onEach)).toEqual(
      credits({ ticket_spend: 10, earned: 1, available: 1, toward_next: 0, to_next: 10 }),
    );
    await buy(onEach, at250, 8); // + £20 = £30
    expect(await creditsOf(onEach)).toEqual(
      credits({ ticket_spend: 30, earned: 3, available: 3, toward_next: 0, to_next: 10 }),
    );
  });

  it("a spin spends one, and without one the spin is refused with no_spin_credits and nothing recorded", async () => {
    const player = await db().createPlayer({ credits: 20 });
    await buy(player, await competitionAt(10), 1);
    const first = await spin(player);
    expect(first.credits).toEqual(credits({ earned: 1, used: 1, available: 0 }));
    const refused = await attempt(spin(player));
    expect(refused).toMatchObject({ ok: false, code: "P0001", hint: "no_spin_credits" });
    expect(await spinRows(player)).toHaveLength(1);
    expect((await mySpinner(player)).seed.next_nonce).toBe(1);
  });

  it("a refund takes back credits not yet spent, never below 0, and spins already made stay", async () => {
    const [cancelled, kept] = [await competitionAt(10), await competitionAt(10)];
    const spender = await db().createPlayer({ credits: 50 });
    const saver = await db().createPlayer({ credits: 50 });
    await buy(spender, cancelled, 2);
    await buy(spender, kept, 1);
    await buy(saver, cancelled, 2);
    await buy(saver, kept, 1);
    const spins = [await spin(spender), await spin(spender)];
    expect(await creditsOf(spender)).toEqual(credits({ ticket_spend: 30, earned: 3, used: 2, available: 1 }));
    const prizesBefore = await db().sql(
      "select amount, reference from public.credit_ledger where user_id = $1 and kind = 'spinner_prize' order by id",
      [spender],
    );

    await db().call(asUser(admin), "admin_cancel_competition", { p_id: cancelled, p_reason: "Prize unavailable" });
    // £20 refunded: £10 of net spend earns 1, 2 were spent, so none is left (not -1).
    expect(await creditsOf(spender)).toEqual(credits({ ticket_spend: 10, earned: 1, used: 2, available: 0 }));
    expect(await creditsOf(saver)).toEqual(credits({ ticket_spend: 10, earned: 1, used: 0, available: 1 }));
    expect((await spinRows(spender)).map((r) => Number(r.id))).toEqual(spins.map((s) => s.id));
    expect(
      await db().sql(
        "select amount, reference from public.credit_ledger where user_id = $1 and kind = 'spinner_prize' order by id",
        [spender],
      ),
    ).toEqual(prizesBefore);
    expect(await attempt(spin(spender))).toMatchObject({ ok: false, hint: "no_spin_credits" });
  });

  it("a refund never takes a postal request's credit: spins use earned credits first", async () => {
    const cancelled = await competitionAt(10);
    const player = await db().createPlayer({ credits: 50 });
    await buy(player, cancelled, 2);
    await grantPostal(player, "Letter 3 Dec");
    // Two earned and one postal credit: the first two spins spend the earned ones.
    await spin(player);
    await spin(player);
    expect(await creditsOf(player)).toEqual(
      credits({ earned: 2, granted: 1, used: 2, earned_available: 0, postal_available: 1, available: 1 }),
    );
    await db().call(asUser(admin), "admin_cancel_competition", { p_id: cancelled, p_reason: "Prize unavailable" });
    expect(await creditsOf(player)).toEqual(
      credits({ ticket_spend: 0, earned: 0, earned_available: 0, postal_available: 1, available: 1 }),
    );
    expect(
      (
        await db().sql<{ source: string }>("select source from public.spinner_spins where user_id = $1 order by id", [
          player,
        ])
      ).map((r) => r.source),
    ).toEqual(["earned", "earned"]);
    await spin(player);
    expect(
      (
        await db().sql<{ source: string }>("select source from public.spinner_spins where user_id = $1 order by id", [
          player,
        ])
      ).map((r) => r.source),
    ).toEqual(["earned", "earned", "postal"]);
    expect(await attempt(spin(player))).toMatchObject({ ok: false, hint: "no_spin_credits" });
  });

  it("a postal request an admin records adds one credit each, with the same odds, audited and mailed", async () => {
    const player = await db().createPlayer();
    const first = await grantPostal(player, "Postcard 1 Dec");
    expect(first.credits).toEqual(credits({ ticket_spend: 0, earned: 0, granted: 1, available: 1 }));
    expect((await grantPostal(player, "Postcard 2 Dec")).credits).toEqual(credits({ granted: 2, available: 2 }));

    const result = await spin(player);
    expect(result.credits).toEqual(credits({ granted: 2, used: 1, available: 1 }));
    // Same odds: the live wheel, the same derivation over its weights as a spin earned by spending.
    const [{ live }] = await db().sql<{ live: string }>("select max(id) as live from public.spinner_wheels");
    expect(result.wheel_id).toBe(Number(live));

    const audit = await db().sql<{ actor_id: string; details: { grant_id: number; reference: string } }>(
      "select actor_id, details from public.activity_log where action = 'spinner.postal_request' and subject_id = $1 order by id",
      [player],
    );
    expect(audit.map((a) => [a.actor_id, a.details.reference])).toEqual([
      [admin, "Postcard 1 Dec"],
      [admin, "Postcard 2 Dec"],
    ]);
    expect(audit[0].details.grant_id).toBe(first.grant_id);
    const mail = await db().sql(
      "select kind from public.mail_outbox where to_user = $1 and kind = 'spinner_postal_request'",
      [player],
    );
    expect(mail).toHaveLength(2);

    // What the admin's user page and the wheel console show of it.
    const userSpins = await db().call<{ credits: SpinCredits; spins: Spin[]; grants: Array<{ reference: string }> }>(
      asUser(admin),
      "admin_user_spins",
      { p_user_id: player },
    );
    expect(userSpins.credits).toEqual(credits({ granted: 2, used: 1, available: 1 }));
    expect(userSpins.spins.map((s) => s.id)).toEqual([result.id]);
    expect(userSpins.grants.map((g) => g.reference)).toEqual(["Postcard 2 Dec", "Postcard 1 Dec"]);
    const adminView = await db().call<{ recent_grants: Array<{ user_id: string; reference: string }> }>(
      asUser(admin),
      "admin_get_spinner",
    );
    expect(adminView.recent_grants.slice(0, 2).map((g) => [g.user_id, g.reference])).toEqual([
      [player, "Postcard 2 Dec"],
      [player, "Postcard 1 Dec"],
    ]);
  });

  it("a postal request needs a reference and a real, undeleted player", async () => {
    const player = await db().createPlayer();
    expect(
      await refusalOf(asUser(admin), "admin_record_spin_request", { p_user_id: player, p_reference: "  " }),
    ).toEqual({ code: "22023", hint: "invalid_input", detail: "reference" });
    expect(await attempt(grantPostal("00000000-0000-4000-8000-000000000000"))).toMatchObject({
      ok: false,
      hint: "user_not_found",
    });
    expect(
      await attempt(db().call(asUser(player), "admin_record_spin_request", { p_user_id: player, p_reference: "x" })),
    ).toMatchObject({ ok: false, hint: "admin_required" });
    expect((await creditsOf(player)).granted).toBe(0);
  });
});

describe("refusals: who may not spin", () => {
  /** A player holding one postal credit, so only the block can refuse them. */
  async function withCredit(opts: { approved: boolean } = { approved: true }) {
    const id = await db().createUser({ approved: opts.approved });
    await grantPostal(id);
    return id;
  }

  async function expectRefused(uid: string, code: string) {
    expect(await attempt(spin(uid))).toMatchObject({ ok: false, hint: code });
    expect(await spinRows(uid)).toEqual([]);
    const state = await mySpinner(uid);
    expect(state.credits.available).toBe(1);
    return state;
  }

  it("unapproved and rejected accounts: approval_pending, approval_rejected", async () => {
    const waiting = await withCredit({ approved: false });
    expect((await expectRefused(waiting, "approval_pending")).block?.code).toBe("approval_pending");
    const rejected = await withCredit({ approved: false });
    await db().call(asUser(admin), "admin_reject_user", { p_user_id: rejected, p_reason: "Could not verify age" });
    await expectRefused(rejected, "approval_rejected");
  });

  it("a break and self-exclusion: on_break, self_excluded", async () => {
    const resting = await withCredit();
    await db().call(asUser(resting), "take_break", { p_period: "1 week" });
    expect((await expectRefused(resting, "on_break")).block?.code).toBe("on_break");
    const excluded = await withCredit();
    await db().call(asUser(excluded), "self_exclude", { p_months: 6 });
    await expectRefused(excluded, "self_excluded");
  });

  it("an admin's restriction and a closed account: restricted, account_closed", async () => {
    const restricted = await withCredit();
    await db().call(asUser(admin), "admin_record_intervention", {
      p_user_id: restricted,
      p_kind: "restricted",
      p_note: "Spending pattern under review",
    });
    await expectRefused(restricted, "restricted");
    const closed = await withCredit();
    await db().call(asUser(closed), "close_account");
    expect(await attempt(spin(closed))).toMatchObject({ ok: false, hint: "account_closed" });
    expect(await spinRows(closed)).toEqual([]);
  });

  it("the wheel switched off: spinner_off for everyone, shown on the public wheel and the player's state", async () => {
    const player = await withCredit();
    await db().call(asUser(admin), "admin_update_settings", { p: { spinner_enabled: false } });
    try {
      expect(await attempt(spin(player))).toMatchObject({ ok: false, hint: "spinner_off" });
      expect((await db().call<{ enabled: boolean }>(anon, "get_spinner_wheel")).enabled).toBe(false);
      expect((await mySpinner(player)).enabled).toBe(false);
      expect(await spinRows(player)).toEqual([]);
    } finally {
      await db().call(asUser(admin), "admin_update_settings", { p: { spinner_enabled: true } });
    }
    expect((await spin(player)).credits.available).toBe(0);
  });

  it("signed out: not_authenticated, and anon may not even call spin_wheel", async () => {
    expect((await db().rpc(anon, "spin_wheel")).error?.code).toBe("42501");
  });
});

describe("prizes land in the ledger once", () => {
  it("each winning spin pays its prize as one spinner_prize row (reference spin:<id>), a losing spin none", async () => {
    const player = await db().createPlayer({ credits: 400 });
    await buy(player, await competitionAt(10), 30); // 30 spin credits; P(30 spins all win or all lose) < 1e-7
    const spins: SpinResult[] = [];
    for (let i = 0; i < 30; i++) spins.push(await spin(player));
    const ledger = await db().sql<{ amount: string; reason: string; reference: string; balance_after: string }>(
      "select amount, reason, reference, balance_after from public.credit_ledger where user_id = $1 and kind = 'spinner_prize' order by id",
      [player],
    );
    const winners = spins.filter((s) => s.prize_credits > 0);
    expect(winners.length).toBeGreaterThan(0);
    expect(winners.length).toBeLessThan(30);
    expect(ledger.map((l) => [l.reference, Number(l.amount), l.reason])).toEqual(
      winners.map((s) => [`spin:${s.id}`, s.prize_credits, `LabSpinner prize: ${s.label}`]),
    );
    // The balance each spin answered is the ledger's balance after its prize (or unchanged after a loss).
    const balances = ledger.map((l) => Number(l.balance_after));
    expect(winners.map((s) => s.balance)).toEqual(balances);
    expect(spins.at(-1)!.balance).toBe(await db().credits(player));
    const [{ references }] = await db().sql<{ references: number }>(
      "select count(distinct reference)::int as references from public.credit_ledger where kind = 'spinner_prize' and user_id = $1",
      [player],
    );
    expect(references).toBe(winners.length);
    const prizeLog = await db().sql(
      "select 1 from public.activity_log where action = 'spinner.prize' and subject_id = $1",
      [player],
    );
    expect(prizeLog).toHaveLength(winners.length);
    expect(await db().ledgerMismatches()).toEqual([]);
  });
});

describe("provably fair: the derivation", () => {
  const weightsOf = async (wheelId: number) =>
    (
      await db().sql<{ weights: number[] }>(
        "select array_agg(weight order by position) as weights from public.spinner_segments where wheel_id = $1",
        [wheelId],
      )
    )[0].weights;

  it("shows the hash first, takes a new client seed from the next spin, and rotation reveals a seed that matches", async () => {
    const player = await db().createPlayer();
    for (let i = 0; i < 4; i++) await grantPostal(player, `Postcard ${i}`);
    const before = (await mySpinner(player)).seed;
    expect(before).toMatchObject({ next_nonce: 0, revealed_at: null, server_seed: null });
    expect(before.server_seed_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(before.client_seed).toMatch(/^[A-Za-z0-9_-]{1,64}$/);

    const first = await spin(player);
    expect(first).toMatchObject({ seed_id: before.id, client_seed: before.client_seed, nonce: 0 });
    expect(first.server_seed_hash).toBe(before.server_seed_hash);
    const changed = await db().call<Seed>(asUser(player), "set_spinner_client_seed", { p_client_seed: "my-Lucky_7" });
    expect(changed).toMatchObject({ id: before.id, client_seed: "my-Lucky_7", next_nonce: 1, server_seed: null });
    const second = await spin(player);
    expect(second).toMatchObject({ seed_id: before.id, client_seed: "my-Lucky_7", nonce: 1 });

    const rotated = await db().call<{ revealed: Seed; seed: Seed }>(asUser(player), "rotate_spinner_seed", {});
    expect(rotated.revealed).toMatchObject({ id: before.id, server_seed_hash: before.server_seed_hash, next_nonce: 2 });
    expect(rotated.revealed.revealed_at).not.toBeNull();
    const serverSeed = Buffer.from(rotated.revealed.server_seed!, "hex");
    expect(serverSeed).toHaveLength(32);
    expect(createHash("sha256").update(serverSeed).digest("hex")).toBe(before.server_seed_hash);
    // The new pair: a new server seed (a new hash), nonce back to 0, a random client seed.
    expect(rotated.seed).toMatchObject({ next_nonce: 0, revealed_at: null, server_seed: null });
    expect(rotated.seed.id).not.toBe(before.id);
    expect(rotated.seed.server_seed_hash).not.toBe(before.server_seed_hash);
    const third = await spin(player);
    expect(third).toMatchObject({
      seed_id: rotated.seed.id,
      nonce: 0,
      server_seed_hash: rotated.seed.server_seed_hash,
    });

    // Every spin of the revealed pair is what the derivation gives for its inputs.
    for (const s of [first, second]) {
      const [derived] = await db().sql<{ attempt: number; value: string; segment_position: number }>(
        "select * from private.spin_derive($1, $2, $3, $4)",
        [serverSeed, s.client_seed, s.nonce, await weightsOf(s.wheel_id)],
      );
      expect({
        attempt: derived.attempt,
        value: Number(derived.value),
        segment_position: derived.segment_position,
      }).toEqual({ attempt: s.attempt, value: s.value, segment_position: s.segment_position });
    }

    // The history the verify page reads: the revealed server seed, never the active one, and each spin's wheel.
    const history = await db().call<{ seeds: Seed[]; spins: Spin[]; wheels: Record<string, Wheel> }>(
      asUser(player),
      "get_my_spin_history",
    );
    expect(history.seeds.map((s) => [s.id, s.server_seed])).toEqual([
      [rotated.seed.id, null],
      [before.id, rotated.revealed.server_seed],
    ]);
    expect(history.spins.map((s) => s.id)).toEqual([third.id, second.id, first.id]);
    const wheel = history.wheels[String(first.wheel_id)];
    expect(wheel.segments.map((s) => s.weight)).toEqual(await weightsOf(first.wheel_id));

    const withSeed = await db().call<{ revealed: Seed; seed: Seed }>(asUser(player), "rotate_spinner_seed", {
      p_client_seed: "chosen",
    });
    expect(withSeed.seed).toMatchObject({ client_seed: "chosen", next_nonce: 0 });
  });

  it("a client seed is 1 to 64 letters, digits, hyphens or underscores", async () => {
    const player = await db().createPlayer();
    for (const bad of ["", "has space", "x".repeat(65), "ünïcode", "semi;colon"]) {
      expect(await refusalOf(asUser(player), "set_spinner_client_seed", { p_client_seed: bad })).toEqual({
        code: "22023",
        hint: "invalid_input",
        detail: "client_seed",
      });
      expect(await refusalOf(asUser(player), "rotate_spinner_seed", { p_client_seed: bad })).toMatchObject({
        detail: "client_seed",
      });
    }
    expect(
      (await db().call<Seed>(asUser(player), "set_spinner_client_seed", { p_client_seed: "x".repeat(64) })).client_seed,
    ).toHaveLength(64);
  });

  it("100,000 derived spins follow the default wheel's weights (chi-square), and a bias would be caught", async () => {
    const [{ weights }] = await db().sql<{ weights: number[] }>(
      `select array_agg(weight order by position) as weights
         from public.spinner_segments where wheel_id = (select min(id) from public.spinner_wheels)`,
    );
    expect(weights).toEqual([1, 30, 12, 25, 20, 7, 2, 3]);
    const serverSeed = createHash("sha256").update("labcash chi-square server seed").digest();
    const rows = await db().sql<{ segment_position: number; spins: number; max_attempt: number }>(
      `select d.segment_position, count(*)::int as spins, max(d.attempt) as max_attempt
         from generate_series(0, 99999) n, lateral private.spin_derive($1, 'chi-square-client', n, $2) d
        group by 1 order by 1`,
      [serverSeed, weights],
    );
    const observed = weights.map((_, i) => rows.find((r) => r.segment_position === i + 1)?.spins ?? 0);
    expect(observed.reduce((a, b) => a + b, 0)).toBe(100_000);
    const fair = chiSquareTest(observed, weights);
    expect(fair.degreesOfFreedom).toBe(7);
    expect(fair.pValue).toBeGreaterThan(0.001);

    // The test has power: the same spins against wrong weights (the £10 segment at 2 rather than 1)...
    expect(chiSquareTest(observed, [2, 30, 12, 25, 20, 7, 2, 3]).pValue).toBeLessThan(1e-6);
    // ...and a biased derivation (one HMAC byte modulo the total weight, no rejection sampling) both fail it.
    const [{ counts }] = await db().sql<{ counts: number[] }>(
      `with naive as (
         select get_byte(extensions.hmac(convert_to('chi-square-client:' || n, 'UTF8'), $1, 'sha256'), 0) % 100 as value
           from generate_series(0, 49999) n)
       select array_agg(c order by position) as counts
         from (select s.position, (select count(*)::int from naive
                                    where value >= s.cumulative - s.weight and value < s.cumulative) as c
                 from (select position, weight, sum(weight) over (order by position) as cumulative
                         from unnest($2::int[]) with ordinality w(weight, position)) s) per_segment`,
      [serverSeed, weights],
    );
    expect(counts.reduce((a, b) => a + b, 0)).toBe(50_000);
    expect(chiSquareTest(counts, weights).pValue).toBeLessThan(1e-6);
  });
});

describe("the admin wheel editor", () => {
  const segments = (changes: Record<number, Partial<Record<keyof Segment, unknown>>> = {}, n = 3) =>
    Array.from({ length: n }, (_, i) => ({
      label: `Segment ${i + 1}`,
      colour: "#1d4ed8",
      label_colour: "#ffffff",
      prize_credits: i === 0 ? 1 : 0,
      weight: 10,
      ...changes[i + 1],
    }));
  const snapshot = async () =>
    (
      await db().sql<{ wheels: number; segments: number; audits: number }>(
        `select (select count(*)::int from public.spinner_wheels) as wheels,
                (select count(*)::int from public.spinner_segments) as segments,
                (select count(*)::int from public.activity_log where action = 'spinner.wheel_updated') as audits`,
      )
    )[0];
  const update = (p_segments: unknown) => refusalOf(asUser(admin), "admin_update_spinner_wheel", { p_segments });

  it("refuses a bad wheel naming the field, and writes nothing", async () => {
    const before = await snapshot();
    const invalid = { code: "22023", hint: "invalid_input" };
    expect(await update(segments({}, 1))).toEqual({ ...invalid, detail: "segments" });
    expect(await update(segments({}, 17))).toEqual({ ...invalid, detail: "segments" });
    expect(await update({ not: "a list" })).toEqual({ ...invalid, detail: "segments" });
    for (const weight of [0, 1.5, 1_000_001, -3, "10"]) {
      expect(await update(segments({ 2: { weight } }))).toEqual({ ...invalid, detail: "segments.2.weight" });
    }
    for (const colour of ["red", "#12345", "#12345g", ""]) {
      expect(await update(segments({ 3: { colour } }))).toEqual({ ...invalid, detail: "segments.3.colour" });
    }
    // #777777 under white is 4.48:1, below the 4.5:1 WCAG AA needs; under black it passes.
    expect(await update(segments({ 2: { colour: "#777777", label_colour: "#ffffff" } }))).toEqual({
      ...invalid,
      detail: "segments.2.colour",
    });
    expect(await update(segments({ 1: { colour: "#facc15", label_colour: "#ffffff" } }))).toEqual({
      ...invalid,
      detail: "segments.1.colour",
    });
    expect(await update(segments({ 2: { label_colour: "#000000" } }))).toEqual({
      ...invalid,
      detail: "segments.2.label_colour",
    });
    for (const prize_credits of [-1, 0.001, 1000.01, "5", null]) {
      expect(await update(segments({ 3: { prize_credits } }))).toEqual({
        ...invalid,
        detail: "segments.3.prize_credits",
      });
    }
    for (const label of ["", "   ", "x".repeat(25)]) {
      expect(await update(segments({ 1: { label } }))).toEqual({ ...invalid, detail: "segments.1.label" });
    }
    expect(await update([...segments({}, 2), "not a segment"])).toEqual({ ...invalid, detail: "segments.3" });
    expect(await snapshot()).toEqual(before);
    expect(
      await attempt(
        db().call(asUser(await db().createPlayer()), "admin_update_spinner_wheel", { p_segments: segments() }),
      ),
    ).toMatchObject({ ok: false, hint: "admin_required" });
  });

  it("a change is a new version for later spins only, audited, and the public odds follow it", async () => {
    const player = await db().createPlayer();
    await grantPostal(player);
    await grantPostal(player);
    const old = await db().call<Wheel>(anon, "get_spinner_wheel");
    const before = await spin(player);
    expect(before.wheel_id).toBe(old.wheel_id);

    // #767676 under white is 4.54:1: just enough.
    const wheel = await db().call<Wheel>(asUser(admin), "admin_update_spinner_wheel", {
      p_segments: [
        { label: " Jackpot ", colour: "#767676", label_colour: "#FFFFFF", prize_credits: 0.5, weight: 1 },
        { label: "Nothing", colour: "#FACC15", label_colour: "#111111", prize_credits: 0, weight: 3 },
      ],
    });
    expect(wheel).toEqual({
      wheel_id: expect.any(Number),
      total_weight: 4,
      expected_prize: 0.125,
      segments: [
        {
          position: 1,
          label: "Jackpot",
          colour: "#767676",
          label_colour: "#ffffff",
          prize_credits: 0.5,
          weight: 1,
          probability: 0.25,
        },
        {
          position: 2,
          label: "Nothing",
          colour: "#facc15",
          label_colour: "#111111",
          prize_credits: 0,
          weight: 3,
          probability: 0.75,
        },
      ],
    });
    expect(wheel.wheel_id).toBeGreaterThan(old.wheel_id);
    expect(await db().call<Wheel & { enabled: boolean }>(anon, "get_spinner_wheel")).toEqual({
      ...wheel,
      enabled: true,
    });

    const after = await spin(player);
    expect(after.wheel_id).toBe(wheel.wheel_id);
    expect(["Jackpot", "Nothing"]).toContain(after.label);
    // The spin before the change keeps the version it used.
    expect((await spinRows(player)).map((r) => Number(r.wheel_id))).toEqual([old.wheel_id, wheel.wheel_id]);

    const [audit] = await db().sql<{ actor_id: string; details: { wheel_id: number; previous_wheel_id: number } }>(
      "select actor_id, details from public.activity_log where action = 'spinner.wheel_updated' order by id desc limit 1",
    );
    expect(audit.actor_id).toBe(admin);
    expect(audit.details).toMatchObject({ wheel_id: wheel.wheel_id, previous_wheel_id: old.wheel_id });

    const adminView = await db().call<{
      wheel: Wheel;
      observed: Array<{ position: number; count: number }>;
      spins: number;
      versions: Array<{ wheel_id: number; spins: number }>;
    }>(asUser(admin), "admin_get_spinner");
    expect(adminView.wheel.wheel_id).toBe(wheel.wheel_id);
    expect(adminView.spins).toBe(1);
    expect(adminView.observed.map((o) => o.count).reduce((a, b) => a + b, 0)).toBe(1);
    expect(adminView.versions[0]).toMatchObject({ wheel_id: wheel.wheel_id, spins: 1 });
    expect(adminView.versions.find((v) => v.wheel_id === old.wheel_id)?.spins).toBeGreaterThan(0);
  });
});

describe("who reads what", () => {
  it("a player reads only their own spins and grants; nobody but the server reads seeds or the wheel tables", async () => {
    const [ann, bob] = [await db().createPlayer(), await db().createPlayer()];
    for (const p of [ann, bob]) {
      await grantPostal(p);
      await spin(p);
    }
    for (const [me, other] of [
      [ann, bob],
      [bob, ann],
    ]) {
      for (const table of ["spinner_spins", "spinner_grants"]) {
        const res = await db().as<{ user_id: string }>(asUser(me), `select user_id from public.${table}`);
        expect(res.error).toBeNull();
        expect(res.rows!.length).toBeGreaterThan(0);
        expect(res.rows!.filter((r) => r.user_id !== me)).toEqual([]);
        expect(res.rows!.some((r) => r.user_id === other)).toBe(false);
      }
    }
    // An admin reads every player's.
    const all = await db().as<{ user_id: string }>(asUser(admin), "select distinct user_id from public.spinner_spins");
    expect(all.rows!.map((r) => r.user_id)).toEqual(expect.arrayContaining([ann, bob]));

    for (const caller of [anon, asUser(ann), asUser(admin)]) {
      for (const table of ["spinner_seeds", "spinner_wheels", "spinner_segments"]) {
        expect((await db().as(caller, `select * from public.${table}`)).error?.code).toBe("42501");
      }
    }
    for (const table of ["spinner_spins", "spinner_grants"]) {
      expect((await db().as(anon, `select * from public.${table}`)).error?.code).toBe("42501");
    }
  });

  it("the active server seed never leaves the database: not in get_my_spinner, spin_wheel or the history", async () => {
    const player = await db().createPlayer();
    await grantPostal(player);
    const state = await mySpinner(player);
    const spun = await spin(player);
    const history = await db().call(asUser(player), "get_my_spin_history");
    const [{ seed }] = await db().sql<{ seed: string }>(
      "select encode(server_seed, 'hex') as seed from public.spinner_seeds where user_id = $1 and revealed_at is null",
      [player],
    );
    for (const answer of [state, spun, history, await mySpinner(player)]) {
      expect(JSON.stringify(answer)).not.toContain(seed);
    }
    expect(state.seed.server_seed).toBeNull();
  });
});
