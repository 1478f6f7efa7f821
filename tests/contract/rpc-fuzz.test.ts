// Fuzzing every RPC: each function the API exposes is called with arguments
// fast-check makes from its signature (the right types and the wrong ones, edge values, missing and
// extra arguments) by each kind of caller: a visitor, a player, a player with two-step on whose
// session has not given its code (aal1), an admin at aal2 and the server. No call may answer 5xx, a
// refused call may change nothing, the half-signed-in player may change nothing at all, and after the
// run every balance still equals its ledger and every competition's counts its tickets.
import fc from "fast-check";
import type { SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEDGER_MISMATCH_SQL } from "../db/support";
import { client, PLAYER_ID, SECRET_KEY, signIn, signInAtAal2, startTestServer, type TestServer } from "./helpers";

let server: TestServer;
let callers: [string, SupabaseClient][];
const seeded = { competitionIds: [] as string[], slugs: [] as string[], userIds: [PLAYER_ID] };

interface RpcSignature {
  name: string;
  args: { name: string; type: string; hasDefault: boolean }[];
}
let functions: RpcSignature[] = [];

/**
 * A digest of every table the app keeps, so a refused call can be shown to have written nothing: each table's row
 * count and newest row version (`xmin`). Any committed insert, update or delete changes one of them (an update
 * writes a new version with a new xmin, even to the same values), so this is at least as strict as hashing every
 * row's content, without sorting and hashing every row after every call.
 */
const DIGEST_FUNCTION = `
  create schema if not exists fuzz;
  create or replace function fuzz.digest() returns text language plpgsql as $$
  declare t record; part text; whole text := '';
  begin
    for t in select schemaname, tablename from pg_tables where schemaname in ('public', 'private') order by 1, 2 loop
      execute format('select count(*) || ''/'' || coalesce(max(xmin::text::bigint), 0) from %I.%I',
                     t.schemaname, t.tablename) into part;
      whole := whole || t.tablename || ':' || part || ';';
    end loop;
    return md5(whole);
  end $$;`;

beforeAll(async () => {
  server = await startTestServer();
  await server.db.exec(DIGEST_FUNCTION);
  const { rows } = await server.db.query<{
    name: string;
    arg_names: string[] | null;
    arg_types: string[];
    defaults: number;
  }>(
    `select p.proname as name, p.proargnames as arg_names,
            array(select format_type(t, null) from unnest(p.proargtypes) t) as arg_types, p.pronargdefaults as defaults
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public' and p.prokind = 'f' and p.prorettype <> 'trigger'::regtype
      order by p.proname`,
  );
  functions = rows.map((row) => ({
    name: row.name,
    args: row.arg_types.map((type, i) => ({
      name: row.arg_names?.[i] ?? `arg${i}`,
      type,
      hasDefault: i >= row.arg_types.length - row.defaults,
    })),
  }));
  const competitions = await server.db.query<{ id: string; slug: string }>("select id, slug from public.competitions");
  seeded.competitionIds = competitions.rows.map((c) => c.id);
  seeded.slugs = competitions.rows.map((c) => c.slug);
  const users = await server.db.query<{ id: string }>("select id from auth.users");
  seeded.userIds = users.rows.map((u) => u.id);

  callers = [
    ["visitor", client(server)],
    ["player", (await signIn(server, "player@labcash.test")).client],
    // Two-step on (enrolled and verified once), then signed in again with the password alone.
    ["player with a factor at aal1", await playerWithFactorAtAal1("amelia.clarke@labcash.test")],
    ["admin", (await signInAtAal2(server, "admin@labcash.test")).client],
    ["server", client(server, SECRET_KEY)],
  ];
});
afterAll(() => server?.stop());

/** A seeded player who turned two-step on, signed in again with the password only: a stolen password's session. */
async function playerWithFactorAtAal1(email: string): Promise<SupabaseClient> {
  await signInAtAal2(server, email);
  const { client: c, session } = await signIn(server, email);
  expect(JSON.parse(Buffer.from(session.access_token.split(".")[1], "base64url").toString()).aal).toBe("aal1");
  return c;
}

/** Callers who may change nothing whatever they call. */
const WRITES_NOTHING = new Set(["player with a factor at aal1"]);

/** Values for one argument: mostly of its type (including edge values), sometimes of another. */
function valueFor(type: string): fc.Arbitrary<unknown> {
  const element = type.endsWith("[]") ? type.slice(0, -2) : undefined;
  if (element) return fc.oneof(fc.array(valueFor(element), { maxLength: 4 }), fc.string());
  const wrong = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.jsonValue());
  const typed: Record<string, fc.Arbitrary<unknown>> = {
    uuid: fc.oneof(fc.constantFrom(...seeded.competitionIds, ...seeded.userIds), fc.uuid()),
    text: fc.oneof(
      fc.string(),
      fc.constantFrom(
        "",
        "admin",
        "user",
        "super_admin",
        "live",
        "on",
        "off",
        "test",
        "stripe",
        "debit",
        ...seeded.slugs,
      ),
    ),
    integer: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom(0, 2_147_483_647, -2_147_483_648)),
    bigint: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom(9_007_199_254_740_991)),
    numeric: fc.oneof(
      fc.double({ min: -1e6, max: 1e6, noNaN: true }),
      fc.constantFrom("NaN", "Infinity", "-Infinity", 0.001, 0.25, 10, 1e20, -1),
    ),
    boolean: fc.boolean(),
    jsonb: fc.oneof(fc.object(), fc.jsonValue()),
    json: fc.oneof(fc.object(), fc.jsonValue()),
    "timestamp with time zone": fc.oneof(
      fc
        .date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true })
        .map((d) => d.toISOString()),
      fc.constantFrom("infinity", "-infinity", "2026-02-30T00:00:00Z", "now"),
    ),
    date: fc.oneof(fc.constantFrom("1990-01-01", "2026-02-29", "infinity", "0001-01-01"), fc.string()),
  };
  return fc.oneof({ weight: 4, arbitrary: typed[type] ?? fc.jsonValue() }, { weight: 1, arbitrary: wrong });
}

/** A call's arguments: each one given or (when it may be) left out, now and then an unknown one too. */
function argumentsFor(fn: RpcSignature): fc.Arbitrary<Record<string, unknown>> {
  const entries = fn.args.map((arg) =>
    fc.oneof(
      { weight: arg.hasDefault ? 2 : 9, arbitrary: valueFor(arg.type).map((value) => [arg.name, value] as const) },
      { weight: 1, arbitrary: fc.constant(undefined) },
    ),
  );
  return fc.tuple(fc.tuple(...entries), fc.option(fc.string(), { freq: 6 })).map(([given, extra]) => {
    const args: Record<string, unknown> = {};
    for (const entry of given) if (entry) args[entry[0]] = entry[1];
    if (extra) args[`x_${extra}`] = 1;
    return args;
  });
}

async function digest(): Promise<string> {
  return (await server.db.query<{ digest: string }>("select fuzz.digest() as digest")).rows[0].digest;
}

/**
 * The next transaction id to be handed out. Any transaction that writes a row takes one, so while it stands still
 * nothing has been written; reading it costs one tiny query, where the digest reads every table.
 */
async function nextTransactionId(): Promise<string> {
  const { rows } = await server.db.query<{ next: string }>(
    "select pg_snapshot_xmax(pg_current_snapshot())::text as next",
  );
  return rows[0].next;
}

/**
 * The digest, read again only when a transaction has been handed an id since it was last read: the answer for every
 * call that wrote nothing, which most fuzzed calls are (refused), without reading every table.
 */
let lastDigest: { transactionId: string; digest: string } | undefined;
async function currentDigest(): Promise<string> {
  const transactionId = await nextTransactionId();
  if (lastDigest?.transactionId !== transactionId) lastDigest = { transactionId, digest: await digest() };
  return lastDigest.digest;
}

describe("every RPC, fuzzed", () => {
  it("answers every caller without a 5xx, and a refused call writes nothing", { timeout: 600_000 }, async () => {
    expect(functions.length).toBeGreaterThan(80);
    const failures: string[] = [];
    for (const fn of functions) {
      for (const [who, caller] of callers) {
        await fc.assert(
          fc.asyncProperty(argumentsFor(fn), async (args) => {
            const before = await currentDigest();
            const { status, error } = await caller.rpc(fn.name, args);
            if (status >= 500) {
              failures.push(`${who} ${fn.name}(${JSON.stringify(args)}) → ${status} ${error?.message}`);
              return;
            }
            if (!error && !WRITES_NOTHING.has(who)) return;
            if ((await currentDigest()) !== before)
              failures.push(`${who} ${fn.name}(${JSON.stringify(args)}) → ${status} but wrote`);
          }),
          { numRuns: 4 },
        );
      }
    }
    expect(failures).toEqual([]);
  });

  it("leaves every balance equal to its ledger and every competition's counts equal to its tickets", async () => {
    expect((await server.db.query(LEDGER_MISMATCH_SQL)).rows).toEqual([]);
    // Online tickets are tickets_sold distinct numbers: 1..tickets_sold in order, any of 1..total_tickets on a pick
    // competition; postal ones after the online pool, without gaps.
    const { rows } = await server.db.query(
      `select c.slug from public.competitions c
         left join (
           select t.competition_id,
                  count(*) filter (where e.kind = 'paid') as paid, max(t.number) filter (where e.kind = 'paid') as paid_top,
                  count(*) filter (where e.kind = 'postal') as postal,
                  min(t.number) filter (where e.kind = 'postal') as postal_first,
                  max(t.number) filter (where e.kind = 'postal') as postal_top
             from public.tickets t join public.entries e on e.id = t.entry_id group by 1
         ) t on t.competition_id = c.id
        where coalesce(t.paid, 0) <> c.tickets_sold
           or coalesce(t.paid_top, 0) > case when c.ticket_numbering = 'pick' then c.total_tickets else c.tickets_sold end
           or coalesce(t.postal, 0) <> c.postal_tickets
           or (t.postal > 0 and (t.postal_first <> c.total_tickets + 1 or t.postal_top <> c.total_tickets + t.postal))`,
    );
    expect(rows).toEqual([]);
  });

  it("would have seen a write: even one that leaves a row's values as they were changes the digest", async () => {
    const [before, transactionBefore] = [await digest(), await nextTransactionId()];
    await server.db.exec(
      "update public.competitions set title = title where id = (select min(id::text)::uuid from public.competitions)",
    );
    expect(await digest()).not.toBe(before);
    // So the digest is read again after it, rather than taken as unchanged.
    expect(await nextTransactionId()).not.toBe(transactionBefore);
  });
});
