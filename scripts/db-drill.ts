// The restore drill (README "Backups and the restore drill"): `npm run db:drill`.
//
// A backup is only as good as the last restore that worked. This dumps a PostgreSQL 15 database with Debian's
// pg_dump (/usr/lib/postgresql/15/bin, the major version hosted Supabase runs), restores the dump into a fresh,
// empty cluster with pg_restore, and checks on the restored copy what must always hold: every balance equals
// its ledger, every competition's sold counts equal its tickets, and every draw re-verifies from its published
// inputs (lib/draws/verify.ts, what the verification page runs). It exits non-zero when any check fails.
//
// It dumps a throwaway cluster migrated and seeded with the demo data (what the db suite runs). A hosted
// project's dump needs Supabase's own roles and extensions, which a bare cluster lacks, so a hosted restore is
// drilled in Supabase itself ("Restore to a new project") and then checked here: with DRILL_CHECK_URL set to
// the restored project's connection string, only the checks run, against it (they only read).
import { chown, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { verifyDraw, type PublishedDraw } from "@/lib/draws/verify";
import { PG15_BIN, run, serviceAccount, startPg15, type Pg15 } from "./pg15";

export interface DrillReport {
  /** Rows per table, equal in the source and the restored copy. */
  rows: Record<string, number>;
  users: number;
  competitions: number;
  draws: number;
  /** Every failed check, in words; empty when the drill passed. */
  problems: string[];
}

const COUNTED_TABLES = [
  "auth.users",
  "public.user_account_data",
  "public.credit_ledger",
  "public.competitions",
  "public.entries",
  "public.tickets",
  "public.draws",
  "public.top_ups",
  "public.mail_outbox",
  "public.activity_log",
];

// The roles hosted Supabase has before any data (the embedded shim makes the same): a dump's grants name them,
// and pg_dump does not dump roles.
const SUPABASE_ROLES = `
do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'anon') then create role anon nologin noinherit; end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then create role authenticated nologin noinherit; end if;
  if not exists (select 1 from pg_roles where rolname = 'service_role') then create role service_role nologin noinherit bypassrls; end if;
  if not exists (select 1 from pg_roles where rolname = 'supabase_auth_admin') then create role supabase_auth_admin nologin noinherit; end if;
end
$$;`;

async function counts(client: pg.Client): Promise<Record<string, number>> {
  const rows: Record<string, number> = {};
  for (const table of COUNTED_TABLES) {
    const { rows: r } = await client.query<{ n: string }>(`select count(*) as n from ${table}`);
    rows[table] = Number(r[0].n);
  }
  return rows;
}

/** The draw's published ticket list, as the verification page downloads it (get_ticket_list_csv, in chunks). */
async function ticketListCsv(client: pg.Client, slug: string): Promise<string> {
  let csv = "";
  let after = 0;
  for (;;) {
    const { rows } = await client.query<{ chunk: { csv: string; last_number: number | null; done: boolean } }>(
      "select to_json(public.get_ticket_list_csv($1, $2, 100000)) as chunk",
      [slug, after],
    );
    const chunk = rows[0].chunk;
    csv += chunk.csv;
    if (chunk.done || chunk.last_number === null) return csv;
    after = chunk.last_number;
  }
}

/** The invariants, checked on `client`'s database; each failure is a sentence. */
export async function checkInvariants(client: pg.Client): Promise<{ problems: string[]; draws: number }> {
  const problems: string[] = [];
  const ledger = await client.query<{ id: string; credits: string; ledger: string }>(
    `select a.id, a.credits::text, coalesce(l.total, 0)::text as ledger
       from public.user_account_data a
       left join (select user_id, sum(amount) as total from public.credit_ledger group by user_id) l on l.user_id = a.id
      where a.credits <> coalesce(l.total, 0)`,
  );
  for (const r of ledger.rows)
    problems.push(`account ${r.id}: balance ${r.credits} but its ledger sums to ${r.ledger}`);

  const sold = await client.query<{
    slug: string;
    tickets_sold: number;
    online: number;
    postal_tickets: number;
    postal: number;
  }>(
    `select c.slug, c.tickets_sold, c.postal_tickets,
            (select count(*) from public.tickets t where t.competition_id = c.id and t.number <= c.total_tickets)::int as online,
            (select count(*) from public.tickets t where t.competition_id = c.id and t.number > c.total_tickets)::int as postal
       from public.competitions c`,
  );
  for (const c of sold.rows) {
    if (c.tickets_sold !== c.online)
      problems.push(`${c.slug}: ${c.tickets_sold} sold online but ${c.online} online tickets`);
    if (c.postal_tickets !== c.postal)
      problems.push(`${c.slug}: ${c.postal_tickets} postal tickets counted but ${c.postal} exist`);
  }

  const draws = await client.query<{ id: string; slug: string }>(
    "select d.id, c.slug from public.draws d join public.competitions c on c.id = d.competition_id order by d.drawn_at",
  );
  for (const d of draws.rows) {
    const { rows } = await client.query<{ draw: PublishedDraw }>("select public.get_draw($1) as draw", [d.id]);
    const draw = rows[0].draw;
    const result = await verifyDraw(draw, draw.tickets ? {} : { ticketList: await ticketListCsv(client, d.slug) });
    if (!result.ok) {
      const failed = result.checks.filter((c) => !c.ok).map((c) => c.name);
      problems.push(`draw ${d.id} (${d.slug}) does not verify: ${failed.join(", ")}`);
    }
  }
  return { problems, draws: draws.rowCount ?? 0 };
}

/** Dumps the source with pg_dump 15, restores into a fresh cluster with pg_restore 15, and checks the copy. */
export async function restoreDrill(log: (line: string) => void = () => {}): Promise<DrillReport> {
  const account = await serviceAccount();
  const work = await mkdtemp(path.join(os.tmpdir(), "labcash-drill-"));
  if (account) await chown(work, account.uid, account.gid);
  const dump = path.join(work, "labcash.dump");
  let source: Pg15 | undefined;
  let target: Pg15 | undefined;
  try {
    source = await startPg15({ seed: true });
    const sourceConfig = source.config;
    log("dumping a fresh PostgreSQL 15 database with every migration and the demo data");
    const connection = [
      "-h",
      String(sourceConfig.host),
      "-p",
      String(sourceConfig.port),
      "-U",
      "postgres",
      "-d",
      "postgres",
    ];
    await run(
      path.join(PG15_BIN, "pg_dump"),
      [...connection, "--format=custom", "--no-owner", "--file", dump],
      account,
    );

    target = await startPg15({ migrate: false });
    log("restoring into a fresh, empty PostgreSQL 15 cluster");
    const restored = new pg.Client(target.config);
    await restored.connect();
    try {
      await restored.query(SUPABASE_ROLES);
      await run(
        path.join(PG15_BIN, "pg_restore"),
        [
          "-h",
          String(target.config.host),
          "-p",
          String(target.config.port),
          "-U",
          "postgres",
          "-d",
          "postgres",
          "--no-owner",
          "--exit-on-error",
          dump,
        ],
        account,
      );

      const problems: string[] = [];
      const after = await counts(restored);
      const original = new pg.Client(sourceConfig);
      await original.connect();
      try {
        const before = await counts(original);
        for (const table of COUNTED_TABLES) {
          if (before[table] !== after[table])
            problems.push(`${table}: ${before[table]} rows dumped, ${after[table]} restored`);
        }
      } finally {
        await original.end();
      }
      log("checking the restored copy: balances against ledgers, sold counts against tickets, every draw");
      const checked = await checkInvariants(restored);
      problems.push(...checked.problems);
      return {
        rows: after,
        users: after["auth.users"],
        competitions: after["public.competitions"],
        draws: checked.draws,
        problems,
      };
    } finally {
      await restored.end();
    }
  } finally {
    await source?.stop();
    await target?.stop();
    await rm(work, { recursive: true, force: true });
  }
}

/** DRILL_CHECK_URL: only the checks, against a database restored elsewhere (a hosted project's restore). */
async function checkOnly(url: string): Promise<DrillReport> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const checked = await checkInvariants(client);
    const rows = await counts(client);
    return {
      rows,
      users: rows["auth.users"],
      competitions: rows["public.competitions"],
      draws: checked.draws,
      problems: checked.problems,
    };
  } finally {
    await client.end();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const checkUrl = process.env.DRILL_CHECK_URL;
  const report = checkUrl ? await checkOnly(checkUrl) : await restoreDrill((line) => console.log(`[drill] ${line}`));
  for (const [table, n] of Object.entries(report.rows)) console.log(`[drill] ${table}: ${n} rows`);
  if (report.problems.length) {
    for (const p of report.problems) console.error(`[drill] FAILED: ${p}`);
    process.exit(1);
  }
  console.log(
    `[drill] passed: ${report.users} users' balances equal their ledgers, ${report.competitions} competitions' sold counts equal their tickets, every draw re-verifies (${report.draws}).`,
  );
}
