// The app's configuration of the embedded backend (@labcash/embedded-supabase, which knows nothing of LabCash):
// its schema (the migrations and the demo seed beside this file), the name its auth mail carries, and the routes
// the app's tests use under /_embedded/. `npm run embedded` (scripts/embedded.ts), the db and contract tests and
// the scripts open the database and the server through here.
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import {
  migratedSnapshot,
  migrate as migrateSchema,
  openDatabase as openSchema,
  type OpenOptions,
  type SchemaOptions,
} from "@labcash/embedded-supabase/db";
import { outboxRoute } from "@labcash/embedded-supabase/mail";
import {
  startEmbeddedServer as startServer,
  type EmbeddedRoute,
  type EmbeddedServer,
  type EmbeddedServerOptions,
} from "@labcash/embedded-supabase/server";
import { embeddedAuthOptions, readAuthConfig } from "./auth-config";

/** supabase/config.toml's [auth], which the embedded backend reads as a hosted project's auth server is given it. */
const authConfig = readAuthConfig();

/** supabase/config.toml's [auth.hook.mfa_verification_attempt] uri: the embedded auth server calls it as GoTrue does. */
export const MFA_VERIFICATION_ATTEMPT_HOOK = authConfig.hook.mfa_verification_attempt.uri;

const here = path.dirname(fileURLToPath(import.meta.url));
export const migrationsDir = path.join(here, "migrations");
export const seedFile = path.join(here, "seed.sql");

const schema: SchemaOptions = {
  migrationsDir,
  seedFile,
  resetAdvice: "Run `npm run db:reset` (it deletes the embedded database and its data), then start again.",
  // A new database (a first `npm run dev`, each end-to-end server, each db test file) copies the migrated one
  // instead of replaying every migration; the seed still runs on the copy, so its dates are today's.
  snapshotDir: path.join(os.tmpdir(), "labcash-db-snapshots"),
};

type AppOpenOptions = Omit<OpenOptions, keyof SchemaOptions>;

/** PGlite with the shim, every migration and (unless `seed: false`) the demo seed. */
export function openDatabase(options: AppOpenOptions = {}): Promise<PGlite> {
  return openSchema({ ...schema, ...options });
}

/**
 * The app's database as a data directory to load (PGlite's `loadDataDir`): every migration, and the demo seed when
 * `seed` is true (its dates then as of when the snapshot was first made, which may be days ago).
 */
export function databaseSnapshot(seed: boolean): Promise<Blob> {
  return migratedSnapshot({ ...schema, seed });
}

/** Brings an open database up to the app's migrations (and seed). */
export function migrate(db: PGlite, options: AppOpenOptions = {}): Promise<void> {
  return migrateSchema(db, { ...schema, ...options });
}

interface AppOutboxRow {
  id: number;
  to_email: string;
  kind: string;
  subject: string;
  body_text: string;
  list_unsubscribe: string | null;
  status: string;
  created_at: string | Date;
}

/** The app's own mail for `email` (public.mail_outbox), newest first: what an inbox would hold with no SMTP. */
async function readAppOutbox(db: PGlite, email: string | null, limit: number): Promise<AppOutboxRow[]> {
  const { rows } = await db.query<AppOutboxRow>(
    `select id, to_email, kind, subject, body_text, list_unsubscribe, status, created_at
       from public.mail_outbox
      where $1::text is null or lower(to_email) = lower($1)
      order by id desc
      limit $2`,
    [email, limit],
  );
  return rows;
}

/**
 * Moves a live competition's clock instead of a test waiting for it: its close (`close`), or its close,
 * postal deadline and draw time (`draw`), become now (or `minutes_ago` minutes ago, up to a day, with the
 * opening moved back if it must be: an overdue draw for the operations alerts), so the page refuses entries
 * or the next cron run draws it. Only dates move, as if the time had passed; the seed and its commitment
 * stay as published.
 */
const competitionDue: EmbeddedRoute = async ({ db, body }) => {
  const {
    competition_id: id,
    until,
    minutes_ago: minutesAgo = 0,
  } = ((await body()) ?? {}) as { competition_id?: unknown; until?: unknown; minutes_ago?: unknown };
  if (
    typeof id !== "string" ||
    (until !== "close" && until !== "draw") ||
    !Number.isInteger(minutesAgo) ||
    (minutesAgo as number) < 0 ||
    (minutesAgo as number) > 1440
  ) {
    return {
      status: 400,
      body: { message: 'Send {"competition_id": uuid, "until": "close" | "draw", "minutes_ago"?: 0 to 1440}' },
    };
  }
  const moved = await db.query<{ id: string }>(
    `with m as (
       select c.id,
              now() - make_interval(mins => $3) as at,
              case when $3 > 0 then least(c.opens_at, now() - make_interval(mins => $3 + 1)) else c.opens_at end as opens
         from public.competitions c where c.id = $1
     )
     update public.competitions c
        set opens_at = m.opens,
            closes_at = greatest(m.at, m.opens + interval '1 millisecond'),
            postal_deadline = case when $2 = 'draw' then greatest(m.at, m.opens + interval '1 millisecond')
                                   else greatest(c.postal_deadline, m.at) end,
            draw_at = case when $2 = 'draw' then greatest(m.at, m.opens + interval '1 millisecond')
                           else greatest(c.draw_at, m.at) end
       from m
      where c.id = m.id and c.status in ('live', 'sold_out')
      returning c.id`,
    [id, until, minutesAgo],
  );
  if (!moved.rows.length) return { status: 404, body: { message: "No live competition with that id" } };
  return { status: 200, body: { competition_id: id, until } };
};

/** E-mailed codes as supabase/config.toml sets them ([auth.email] otp_length, otp_expiry). */
export const EMAIL_OTP = { length: authConfig.email.otp_length, expirySeconds: authConfig.email.otp_expiry } as const;

/**
 * The server's options for this app: supabase/config.toml's auth settings, the schema, the mail name and the routes.
 * `testFixtures` adds POST /_embedded/test/competition-due, which the end-to-end
 * suite uses to move time (only scripts/e2e-server.mjs asks for it; `npm run dev` and `npm start` never do).
 */
export function appServerOptions({ testFixtures = false } = {}): EmbeddedServerOptions {
  const routes: Record<string, EmbeddedRoute> = { "GET /_embedded/app-mail": outboxRoute(readAppOutbox) };
  if (testFixtures) routes["POST /_embedded/test/competition-due"] = competitionDue;
  return { ...embeddedAuthOptions(authConfig), schema, appName: "LabCash", routes };
}

/** The package's server with the app's schema, mail name and routes; `options` may override any of them. */
export function startEmbeddedServer(options: EmbeddedServerOptions = {}): Promise<EmbeddedServer> {
  return startServer({ ...appServerOptions(), ...options });
}
