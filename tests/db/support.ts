// The one toolkit of the db tests: a fresh in-memory PGlite per test file with the
// Supabase shim and every migration applied, auth users made the way the auth server
// makes them, competitions made the way the admin pages make them, and SQL run "as" a
// caller the way the API gateway (PostgREST) runs it: one transaction, `set local role`,
// `request.jwt.claims` set locally.
import { PGlite } from "@electric-sql/pglite";
import { pgcrypto } from "@electric-sql/pglite/contrib/pgcrypto";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { databaseSnapshot } from "@/supabase/embedded";

// ---------------------------------------------------------------------------
// Callers
// ---------------------------------------------------------------------------
/** A session's authenticator assurance level: aal1 after a password, aal2 after a TOTP code too. */
export type Aal = "aal1" | "aal2";

export type Caller =
  | { role: "anon" }
  | { role: "authenticated"; sub?: string; aal?: Aal; session_id?: string }
  | { role: "service_role"; sub?: string };

export const anon: Caller = { role: "anon" };
/** The server holding the secret key, acting for nobody in particular. */
export const service: Caller = { role: "service_role" };
/** A signed-in user with a fully signed-in session (aal2: see claimsOf). */
export const asUser = (id: string): Caller => ({ role: "authenticated", sub: id });
/** A signed-in user whose session has not passed two-step verification (password only). */
export const asUserAtAal1 = (id: string): Caller => ({ role: "authenticated", sub: id, aal: "aal1" });

/**
 * The token claims the gateway hands to SQL. Tests model a fully signed-in session: a caller with
 * a user id carries `aal: "aal2"` (password and two-step code), which admins need for every admin
 * function (is_admin, the guards, the "or admin" row policies). An aal1 session (password only) is
 * opted into explicitly with asUserAtAal1 or `aal: "aal1"`. The secret key's token has no aal.
 */
export function claimsOf(caller: Caller): Record<string, unknown> {
  const claims: Record<string, unknown> = { role: caller.role };
  if ("sub" in caller && caller.sub) {
    claims.sub = caller.sub;
    claims.aud = "authenticated";
    if (caller.role === "authenticated") {
      claims.aal = caller.aal ?? "aal2";
      if (caller.session_id) claims.session_id = caller.session_id;
    }
  }
  return claims;
}

export interface DbError {
  code: string;
  message: string;
  /** The stable machine code a refusal carries in its HINT (absent on Postgres's own errors). */
  hint?: string;
}

export type Result<T> = { rows: T[]; error: null } | { rows: null; error: DbError };

/** Anything with pg's / PGlite's `query(sql, params) → { rows }`. */
export interface Queryable {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
}

/** What the gateway does at the start of every request's transaction. */
export async function becomeCaller(tx: Queryable, caller: Caller): Promise<void> {
  // The role name comes from a closed union, never from input.
  await tx.query(`set local role ${caller.role}`);
  await tx.query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify(claimsOf(caller))]);
}

export function toDbError(e: unknown): DbError {
  const err = e as { code?: unknown; message?: unknown; hint?: unknown };
  if (typeof err?.code !== "string") throw e;
  const error: DbError = { code: err.code, message: String(err.message) };
  if (typeof err.hint === "string") error.hint = err.hint;
  return error;
}

/** What a function returns, as far as reading its answer goes. */
export interface ReturnShape {
  setReturning: boolean;
  /** A declared composite type (create type … as): PostgREST renders it as JSON, so its value is read as JSON. */
  composite: boolean;
}

/** Named-argument call of public.{fn}, as PostgREST builds it from a JSON body. */
export function rpcSql(
  fn: string,
  args: Record<string, unknown>,
  { setReturning, composite }: ReturnShape = { setReturning: false, composite: false },
): [string, unknown[]] {
  if (!/^[a-z_][a-z0-9_]*$/.test(fn)) throw new Error(`bad function name ${fn}`);
  const names = Object.keys(args);
  for (const n of names) if (!/^[a-z_][a-z0-9_]*$/.test(n)) throw new Error(`bad argument name ${n}`);
  const list = names.map((n, i) => `${n} => $${i + 1}`).join(", ");
  const call = `public.${fn}(${list})`;
  const sql = composite
    ? setReturning
      ? `select coalesce(json_agg(t), '[]'::json) as value from ${call} t`
      : `select to_json(t) as value from ${call} t`
    : setReturning
      ? `select * from ${call}`
      : `select ${call} as value`;
  return [sql, names.map((n) => args[n])];
}

/** An adult's date of birth, as every sign-up must give one (the trigger refuses a user without). */
export const ADULT_DATE_OF_BIRTH = "1990-01-01";
const ADULT = { date_of_birth: ADULT_DATE_OF_BIRTH };

// ---------------------------------------------------------------------------
// The database
// ---------------------------------------------------------------------------
export class TestDb {
  private shapes = new Map<string, ReturnShape>();
  private userCount = 0;
  private competitionCount = 0;

  constructor(readonly pg: PGlite) {}

  /** As the database owner (what migrations, the seed and the auth server run as). */
  async sql<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    return (await this.pg.query<T>(sql, params)).rows;
  }

  /** Runs one statement as `caller` in its own transaction; returns rows or the error. */
  async as<T = Record<string, unknown>>(caller: Caller, sql: string, params: unknown[] = []): Promise<Result<T>> {
    try {
      const rows = await this.pg.transaction(async (tx) => {
        await becomeCaller(tx, caller);
        return (await tx.query<T>(sql, params)).rows;
      });
      return { rows, error: null };
    } catch (e) {
      return { rows: null, error: toDbError(e) };
    }
  }

  /** Like supabase.rpc(): data is the rows of a set-returning function (a declared composite's as JSON), else its value. */
  async rpc<T = unknown>(
    caller: Caller,
    fn: string,
    args: Record<string, unknown> = {},
  ): Promise<{ data: T; error: null } | { data: null; error: DbError }> {
    const shape = await this.returnShape(fn);
    const [sql, params] = rpcSql(fn, args, shape);
    const res = await this.as<{ value: unknown }>(caller, sql, params);
    if (res.error) return { data: null, error: res.error };
    const data = shape.setReturning && !shape.composite ? res.rows : res.rows[0]?.value;
    return { data: data as T, error: null };
  }

  /** rpc() that must succeed: throws a DbRefusal (the database's message, code and hint) if refused. */
  async call<T = unknown>(caller: Caller, fn: string, args: Record<string, unknown> = {}): Promise<T> {
    const res = await this.rpc<T>(caller, fn, args);
    if (res.error) throw new DbRefusal(fn, res.error);
    return res.data;
  }

  private async returnShape(fn: string): Promise<ReturnShape> {
    if (!this.shapes.has(fn)) {
      const rows = await this.sql<ReturnShape>(
        `select p.proretset as "setReturning", t.typtype = 'c' as composite
           from pg_proc p join pg_type t on t.oid = p.prorettype
          where p.proname = $1 and p.pronamespace = 'public'::regnamespace`,
        [fn],
      );
      this.shapes.set(fn, rows[0] ?? { setReturning: false, composite: false });
    }
    return this.shapes.get(fn)!;
  }

  /**
   * Signs a user up the way the auth server does (insert into auth.users; the trigger
   * makes the profile), then optionally gives a role, approval and credit. The metadata
   * carries an adult's date of birth unless `meta` gives one (every sign-up must).
   */
  async createUser(
    opts: {
      email?: string | null;
      name?: string;
      meta?: Record<string, unknown>;
      role?: "user" | "admin" | "super_admin";
      approved?: boolean;
      /** Added by the server (add_credits with the secret key), so it is in the ledger. */
      credits?: number | string;
    } = {},
  ): Promise<string> {
    this.userCount += 1;
    const email = opts.email === undefined ? `user${this.userCount}@labcash.test` : opts.email;
    const [{ id }] = await this.sql<{ id: string }>(
      "insert into auth.users (email, raw_user_meta_data) values ($1, $2) returning id",
      [email, JSON.stringify({ ...ADULT, ...(opts.meta ?? { name: opts.name ?? `Test User${this.userCount}` }) })],
    );
    if (opts.role && opts.role !== "user") {
      await this.sql("update public.user_account_data set role = $2 where id = $1", [id, opts.role]);
    }
    if (opts.approved) {
      await this.sql("update public.user_account_data set approved = true, approved_at = now() where id = $1", [id]);
    }
    if (opts.credits) {
      await this.call(service, "add_credits", { user_id: id, amount: opts.credits });
    }
    return id;
  }

  /** An approved user: one who may add credit and enter competitions. */
  async createPlayer(opts: { name?: string; credits?: number | string } = {}): Promise<string> {
    return this.createUser({ ...opts, approved: true });
  }

  /**
   * A top-up as a player makes one: created by them (with what to buy once paid, if any), then confirmed by the
   * server as the provider's webhook would, paid in full by a card of `funding`. Its id.
   */
  async paidTopUp(userId: string, amount: number, funding = "debit", purpose: unknown = null): Promise<string> {
    const t = await this.call<{ id: string }>(asUser(userId), "create_top_up", {
      p_amount: amount,
      p_provider: "test",
      p_purpose: purpose,
    });
    await this.call(service, "confirm_top_up", {
      p_top_up_id: t.id,
      p_payment_id: `pi_${t.id}`,
      p_funding: funding,
      p_amount_paid: amount,
    });
    return t.id;
  }

  async createAdmin(): Promise<string> {
    return this.createUser({ name: "Ada Admin", role: "admin", approved: true });
  }

  /** Creates a competition as the admin, through the admin RPCs, and publishes it unless told not to. */
  async createCompetition(adminId: string, fields: CompetitionFields = {}, publish = true): Promise<string> {
    this.competitionCount += 1;
    const n = this.competitionCount;
    const created = await this.call<{ id: string }>(asUser(adminId), "admin_create_competition", {
      p: {
        title: `Test prize ${n}`,
        slug: `test-prize-${n}`,
        prize_description: "A test prize",
        prize_value: 100,
        images: ["/competitions/test.svg"],
        ticket_price: 1,
        total_tickets: 100,
        closes_at: new Date(Date.now() + 7 * 86400_000).toISOString(),
        skill_question: "What is 2 + 2?",
        skill_options: ["3", "4", "5"],
        skill_answer: "4",
        ...fields,
        max_tickets_per_user: fields.max_tickets_per_user ?? Math.min(100, fields.total_tickets ?? 100),
      },
    });
    if (publish) await this.call(asUser(adminId), "admin_publish_competition", { p_id: created.id });
    return created.id;
  }

  /** A competition `winnerId` alone enters (one ticket), drawn now. */
  async wonBy(
    adminId: string,
    winnerId: string,
    fields: CompetitionFields = {},
  ): Promise<{ competitionId: string; slug: string; drawId: string }> {
    const competitionId = await this.createCompetition(adminId, fields);
    await this.call(asUser(winnerId), "enter_competition", {
      p_competition_id: competitionId,
      p_quantity: 1,
      p_answer: "4",
    });
    await this.drawNow(adminId, competitionId);
    const [{ drawId, slug }] = await this.sql<{ drawId: string; slug: string }>(
      `select d.id as "drawId", c.slug from public.draws d join public.competitions c on c.id = d.competition_id
        where c.id = $1`,
      [competitionId],
    );
    return { competitionId, slug, drawId };
  }

  /** A free postal entry with no account (Pat Post, York), as the admin records a letter; the skill answer "4". */
  async postalEntry(adminId: string, competitionId: string): Promise<void> {
    await this.call(asUser(adminId), "admin_record_postal_entry", {
      p_competition_id: competitionId,
      p_user_id: null,
      p_name: "Pat Post",
      p_address: "1 High Street, York YO1 7HH",
      p_answer: "4",
    });
  }

  /** Moves a published competition's dates into the past (sales closed, postal deadline passed) and draws it now. */
  async drawNow(adminId: string, competitionId: string): Promise<void> {
    await this.sql(
      `update public.competitions set opens_at = now() - interval '3 days', closes_at = now() - interval '2 days',
              postal_deadline = now() - interval '1 day', draw_at = now() - interval '1 second' where id = $1`,
      [competitionId],
    );
    await this.call(asUser(adminId), "run_due_draws");
  }

  /** The whole ticket-list CSV as anyone downloads it, its chunks joined, as the entry list's download does. */
  async ticketListCsv(slug: string): Promise<string> {
    let csv = "";
    let after = 0;
    for (;;) {
      const chunk = await this.call<{ csv: string; last_number: number | null; done: boolean }>(
        anon,
        "get_ticket_list_csv",
        { p_slug: slug, p_after: after, p_limit: 100 },
      );
      csv += chunk.csv;
      if (chunk.done || chunk.last_number === null) return csv;
      after = chunk.last_number;
    }
  }

  /**
   * Gives the user a second factor the way the auth server keeps one (auth.mfa_factors, as GoTrue does on
   * hosted Supabase): 'verified' once its first code was given, 'unverified' while set-up is half done.
   */
  async addSecondFactor(userId: string, status: "verified" | "unverified" = "verified"): Promise<void> {
    await this.sql(
      "insert into auth.mfa_factors (user_id, friendly_name, factor_type, status) values ($1, $2, 'totp', $3)",
      [userId, `Authenticator app ${status}`, status],
    );
  }

  async account(id: string): Promise<Record<string, unknown>> {
    const [row] = await this.sql("select * from public.user_account_data where id = $1", [id]);
    return row;
  }

  async credits(id: string): Promise<number> {
    const [row] = await this.sql<{ credits: string }>("select credits from public.user_account_data where id = $1", [
      id,
    ]);
    return Number(row.credits);
  }

  async ledger(
    id: string,
  ): Promise<Array<{ kind: string; amount: string; balance_after: string; created_by: string | null }>> {
    return this.sql("select * from public.credit_ledger where user_id = $1 order by id", [id]);
  }

  /** Users whose cached balance differs from their ledger, or whose last row disagrees. */
  async ledgerMismatches(): Promise<unknown[]> {
    return this.sql(LEDGER_MISMATCH_SQL);
  }

  async close(): Promise<void> {
    await this.pg.close();
  }
}

export interface CompetitionFields {
  title?: string;
  slug?: string;
  ticket_price?: string | number;
  prize_value?: number;
  total_tickets?: number;
  max_tickets_per_user?: number;
  closes_at?: string;
  opens_at?: string;
  postal_deadline?: string;
  draw_at?: string;
  cash_alternative?: number | null;
  skill_question?: string | null;
  skill_options?: string[] | null;
  skill_answer?: string | null;
  ticket_numbering?: "in_order" | "pick";
  charity?: Record<string, unknown> | null;
  prizes?: Array<{ description: string; value: number | string; cash_alternative?: number | string | null }>;
}

/** A refused call: the database's own message, with its SQLSTATE code and machine-code hint. */
export class DbRefusal extends Error {
  readonly code: string;
  readonly hint?: string;
  constructor(
    readonly fn: string,
    error: DbError,
  ) {
    super(error.message);
    this.name = "DbRefusal";
    this.code = error.code;
    this.hint = error.hint;
  }
}

/** Outcome of a call that may be refused: the value, or the refusal's message, code and hint. */
export async function attempt<T>(
  p: Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; message: string; code: string; hint?: string }> {
  try {
    return { ok: true, value: await p };
  } catch (e) {
    if (e instanceof DbRefusal) return { ok: false, message: e.message, code: e.code, hint: e.hint };
    const error = toDbError(e);
    return { ok: false, ...error };
  }
}

export const LEDGER_MISMATCH_SQL = `
  select a.id, a.credits, coalesce(s.total, 0) as ledger_sum, s.last_balance
    from public.user_account_data a
    left join (
      select l.user_id, sum(l.amount) as total,
             (array_agg(l.balance_after order by l.id desc))[1] as last_balance
        from public.credit_ledger l group by l.user_id
    ) s on s.user_id = a.id
   where a.credits <> coalesce(s.total, 0)
      or (s.last_balance is not null and s.last_balance <> a.credits)`;

// Fresh databases, fast: a copy of the migrated (or seeded) snapshot per test file (supabase/embedded.ts).
/** A new in-memory database with the shim and every migration (and the seed if asked). */
export async function freshDb(options: { seed?: boolean } = {}): Promise<TestDb> {
  const pg = await PGlite.create({
    loadDataDir: await databaseSnapshot(options.seed ?? false),
    extensions: { pgcrypto },
  });
  return new TestDb(pg);
}

/**
 * One database for the test file. After every test the ledger invariant is checked:
 * for every user, credits equals the sum of their ledger rows and the last row's balance.
 */
export function dbPerFile(options: { seed?: boolean } = {}): () => TestDb {
  let db: TestDb | undefined;
  beforeAll(async () => {
    db = await freshDb(options);
  });
  afterEach(async () => {
    if (db) expect(await db.ledgerMismatches()).toEqual([]);
  });
  afterAll(async () => {
    await db?.close();
  });
  return () => {
    if (!db) throw new Error("database not open yet");
    return db;
  };
}

/**
 * Reads every page of a keyset-paged call: `page(key)` checks one page (the first with a null key) and answers the
 * next page's key, null on the last; more than `most` pages fails.
 */
export async function eachPage<K>(page: (key: K | null) => Promise<K | null>, most = 20): Promise<void> {
  let key: K | null = null;
  for (let n = 0; n < most; n++) {
    key = await page(key);
    if (key === null) return;
  }
  throw new Error(`More than ${most} pages`);
}

/** The guards' refusals, as the API returns them. */
export const NOT_AUTHENTICATED: DbError = {
  code: "42501",
  message: "User not authenticated",
  hint: "not_authenticated",
};
export const ADMIN_REQUIRED: DbError = {
  code: "42501",
  message: "Access denied: Admin privileges required",
  hint: "admin_required",
};
export const SUPER_ADMIN_REQUIRED: DbError = {
  code: "42501",
  message: "Access denied: Super admin privileges required",
  hint: "super_admin_required",
};
/** A session at aal1 (password only) that owes its second step: an admin, or a user with a verified factor. */
export const AAL2_REQUIRED: DbError = {
  code: "42501",
  message: "Two-step verification required",
  hint: "aal2_required",
};

// ---------------------------------------------------------------------------
// The deduction race, shared by the PGlite and PostgreSQL 15 tests
// ---------------------------------------------------------------------------
export const RACE = { balance: 100, calls: 200 } as const;

/** What the race must leave behind, read as the database owner. */
export async function raceOutcome(q: Queryable, userId: string, results: boolean[]) {
  const [state] = (
    await q.query<{ credits: string; ledger_sum: string; debits: number; debit_total: string }>(
      `select a.credits,
              (select coalesce(sum(amount), 0) from public.credit_ledger where user_id = a.id) as ledger_sum,
              (select count(*)::int from public.credit_ledger where user_id = a.id and kind = 'debit') as debits,
              (select coalesce(sum(amount), 0) from public.credit_ledger where user_id = a.id and kind = 'debit') as debit_total
         from public.user_account_data a where a.id = $1`,
      [userId],
    )
  ).rows;
  return {
    trueCount: results.filter((r) => r === true).length,
    falseCount: results.filter((r) => r === false).length,
    credits: Number(state.credits),
    ledgerSum: Number(state.ledger_sum),
    debits: state.debits,
    debitTotal: Number(state.debit_total),
    mismatches: (await q.query(LEDGER_MISMATCH_SQL)).rows,
  };
}

export const EXPECTED_RACE_OUTCOME = {
  trueCount: RACE.balance,
  falseCount: RACE.calls - RACE.balance,
  credits: 0,
  ledgerSum: 0,
  debits: RACE.balance,
  debitTotal: -RACE.balance,
  mismatches: [],
};

/** Admin functions only a super admin may run, each with its reason (the matrix and the two-step tests). */
export const SUPER_ADMIN_ONLY: Record<string, string> = {
  admin_set_user_role: "manage_users: roles are for super admins",
  admin_delete_user: "delete: anonymising an account is for super admins",
  admin_record_two_step_reset: "manage_users: removing someone's authenticator is for super admins",
  admin_deep_health: "operations: the deeper health check is for super admins",
  admin_retry_mail: "operations: the System page's actions are for super admins",
  admin_resolve_payment: "operations: the System page's actions are for super admins",
  admin_acknowledge_alert: "operations: the System page's actions are for super admins",
};

/**
 * An admin function refused to everyone else: an approved player and one awaiting approval (admin required), a
 * caller with the role but no user id and the secret key acting for nobody (not signed in), and anon, which holds
 * no EXECUTE grant, so the function never runs.
 */
export async function expectRefusedToNonAdmins(db: TestDb, fn: string, args: Record<string, unknown> = {}) {
  const player = await db.createPlayer();
  const pending = await db.createUser();
  for (const caller of [asUser(player), asUser(pending)]) {
    expect((await db.rpc(caller, fn, args)).error, `${fn} as a user`).toEqual(ADMIN_REQUIRED);
  }
  for (const caller of [{ role: "authenticated" }, service] as Caller[]) {
    expect((await db.rpc(caller, fn, args)).error, `${fn} as ${caller.role}`).toEqual(NOT_AUTHENTICATED);
  }
  const res = await db.rpc(anon, fn, args);
  expect(res.error?.code, `${fn} as anon`).toBe("42501");
  expect(res.error?.message).toMatch(/permission denied for function/);
}
