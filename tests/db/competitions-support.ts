// Small helpers for the competition db tests: one in-memory PGlite per file with
// every migration (no seed unless asked), and calls made as a given API role
// inside their own transaction, as PostgREST does.
import type { PGlite } from "@electric-sql/pglite";
import { openDatabase } from "@/supabase/embedded/db";
import { LEDGER_MISMATCH_SQL, asUser as user, becomeCaller, rpcSql, type Caller } from "./support";

// Caller roles and the PostgREST-style call come from ./support; these are the function-style
// helpers the competition tests are written with.
export type Db = PGlite;
export type { Caller };
export { anon, service as server } from "./support";
export { user };

export async function openTestDb(options: { seed?: boolean } = {}): Promise<Db> {
  return openDatabase({ seed: options.seed ?? false });
}

export class RpcError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    /** The refusal's stable machine code (the exception's HINT). */
    readonly hint: string | undefined,
  ) {
    super(message);
  }
}

async function callAs<T>(db: Db, caller: Caller, sql: string, params: unknown[]): Promise<T[]> {
  try {
    return await db.transaction(async (tx) => {
      await becomeCaller(tx, caller);
      return (await tx.query<T>(sql, params)).rows;
    });
  } catch (e) {
    const err = e as { message: string; code?: string; hint?: string };
    throw new RpcError(err.message, err.code, err.hint);
  }
}

/** Calls public.<fn>(named args) as the caller, in its own transaction; throws RpcError when refused. */
export async function rpc<T = unknown>(db: Db, caller: Caller, fn: string, args: Record<string, unknown> = {}): Promise<T> {
  const [sql, params] = rpcSql(fn, args, false);
  return (await callAs<{ value: T }>(db, caller, sql, params))[0]?.value as T;
}

/** Like rpc() for set-returning functions: every row. */
export async function rpcRows<T = Record<string, unknown>>(
  db: Db,
  caller: Caller,
  fn: string,
  args: Record<string, unknown> = {},
): Promise<T[]> {
  const [sql, params] = rpcSql(fn, args, true);
  return callAs<T>(db, caller, sql, params);
}

/** Outcome of a call that may be refused: the value, or the refusal message. */
export async function attempt<T>(
  p: Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; message: string; code?: string; hint?: string }> {
  try {
    return { ok: true, value: await p };
  } catch (e) {
    return { ok: false, message: (e as Error).message, code: (e as RpcError).code, hint: (e as RpcError).hint };
  }
}

let userCounter = 0;

/** A user with profile and account rows (created by the foundation trigger), optionally approved and funded. */
export async function createUser(
  db: Db,
  options: { name?: string; approved?: boolean; credits?: string; role?: "user" | "admin" | "super_admin" } = {},
): Promise<string> {
  userCounter++;
  const id = (
    await db.query<{ id: string }>(
      `insert into auth.users (email, raw_user_meta_data) values ($1, $2) returning id`,
      [`user${userCounter}-${Date.now()}@test.labcash`, { name: options.name ?? `Test User${userCounter}`, date_of_birth: "1990-01-01" }],
    )
  ).rows[0].id;
  await db.query(`update public.user_account_data set approved = $2, role = $3 where id = $1`, [
    id,
    options.approved ?? true,
    options.role ?? "user",
  ]);
  if (options.credits && Number(options.credits) > 0) {
    await db.query(`select private.post_ledger($1, 'top_up', $2::numeric, 'Test top-up', 'test', $2::numeric)`, [id, options.credits]);
  }
  return id;
}

export async function createAdmin(db: Db): Promise<string> {
  return createUser(db, { name: "Ada Admin", role: "admin" });
}

export interface CompetitionFields {
  title?: string;
  slug?: string;
  ticket_price?: string | number;
  total_tickets?: number;
  max_tickets_per_user?: number;
  closes_at?: string;
  opens_at?: string;
  skill_question?: string | null;
  skill_options?: string[] | null;
  skill_answer?: string | null;
}

let compCounter = 0;

/** Creates and (by default) publishes a competition as the admin; returns its id. */
export async function createCompetition(
  db: Db,
  adminId: string,
  fields: CompetitionFields = {},
  publish = true,
): Promise<string> {
  compCounter++;
  const created = await rpc<{ id: string }>(db, user(adminId), "admin_create_competition", {
    p: {
      title: `Test prize ${compCounter}`,
      slug: `test-prize-${compCounter}-${Date.now()}`,
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
  if (publish) await rpc(db, user(adminId), "admin_publish_competition", { p_id: created.id });
  return created.id;
}

/** Every account whose balance differs from its ledger (should be none). */
export async function ledgerMismatches(db: Db): Promise<unknown[]> {
  return (await db.query(LEDGER_MISMATCH_SQL)).rows;
}
