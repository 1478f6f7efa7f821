// Catalogue checks over everything in schema public, so that every future migration is
// held to the same rules (ARCHITECTURE §4 "Function privileges", "SQL style").
import { describe, expect, it } from "vitest";
import { dbPerFile } from "./support";

const db = dbPerFile();

/**
 * Functions anon (and so anyone on the internet) may execute. Adding one is a decision:
 * it must be safe for a caller with no account and say why here.
 */
const ANON_EXECUTABLE: Record<string, string> = {
  "is_admin()": "spec §6 guard; false for anon",
  "is_super_admin()": "spec §6 guard; false for anon",
  "has_permission(text)": "spec §6 guard; false for anon",
  "list_competitions(text)": "public competition pages (competitions migration)",
  "get_competition(text)": "public competition pages (competitions migration)",
  "list_winners()": "public winners page (competitions migration)",
  "get_draw(uuid)": "public draw verification page (competitions migration)",
  "get_site_settings()": "the launch countdown on the home page (site settings migration)",
};

describe("schema public", () => {
  it("every table has row-level security enabled", async () => {
    const rows = await db().sql(
      `select c.relname from pg_class c
        where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and not c.relrowsecurity
        order by 1`,
    );
    expect(rows).toEqual([]);
    const [{ n }] = await db().sql<{ n: number }>(
      "select count(*)::int as n from pg_class where relnamespace = 'public'::regnamespace and relkind in ('r', 'p')",
    );
    expect(n).toBeGreaterThanOrEqual(6);
  });

  it("no function is executable by PUBLIC, nor by anon unless allow-listed", async () => {
    const rows = await db().sql<{ fn: string; public: boolean; anon: boolean }>(
      `select regexp_replace(p.oid::regprocedure::text, '^public\\.', '') as fn,
              exists (select 1 from aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
                       where a.grantee = 0 and a.privilege_type = 'EXECUTE') as public,
              has_function_privilege('anon', p.oid, 'EXECUTE') as anon
         from pg_proc p
        where p.pronamespace = 'public'::regnamespace
        order by 1`,
    );
    expect(rows.length).toBeGreaterThan(20);
    expect(rows.filter((r) => r.public).map((r) => r.fn)).toEqual([]);
    const anonCallable = rows.filter((r) => r.anon).map((r) => r.fn);
    expect(anonCallable.filter((fn) => !(fn in ANON_EXECUTABLE))).toEqual([]);
    // The allow-list names only functions that exist, so it cannot go stale unnoticed.
    expect(Object.keys(ANON_EXECUTABLE).filter((fn) => !anonCallable.includes(fn))).toEqual([]);
  });

  it("internal helpers are callable by no API role, not even the secret key", async () => {
    // They move money, write the audit log or bypass checks; only other functions may call them.
    const internal = [
      "setting(text)",
      "log_activity(text,uuid,jsonb)",
      "queue_mail(uuid,text,text,text)",
      "create_account_rows(uuid)",
      "account_json(uuid)",
      "post_ledger(uuid,text,numeric,text,text,numeric)",
      "handle_new_user()",
      "sync_profile_email()",
      "forbid_ledger_change()",
    ];
    const rows = await db().sql<{ fn: string; role: string }>(
      `select f.fn, r.role
         from unnest($1::text[]) as f(fn)
        cross join unnest(array['anon', 'authenticated', 'service_role']) as r(role)
        where has_function_privilege(r.role, ('public.' || f.fn)::regprocedure, 'EXECUTE')`,
      [internal],
    );
    expect(rows).toEqual([]);
  });

  it("every function fixes its search_path (and so every security definer one does)", async () => {
    const rows = await db().sql<{ fn: string; definer: boolean }>(
      `select p.oid::regprocedure::text as fn, p.prosecdef as definer
         from pg_proc p
        where p.pronamespace = 'public'::regnamespace
          and not exists (select 1 from unnest(coalesce(p.proconfig, '{}')) c where c like 'search_path=%')
        order by 1`,
    );
    expect(rows).toEqual([]);
    const [{ n }] = await db().sql<{ n: number }>(
      "select count(*)::int as n from pg_proc where pronamespace = 'public'::regnamespace and prosecdef",
    );
    expect(n).toBeGreaterThan(10);
  });

  it("every table and function has a comment saying what it is for", async () => {
    const rows = await db().sql(
      `select 'table ' || c.relname as what from pg_class c
        where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p', 'v', 'm')
          and obj_description(c.oid, 'pg_class') is null
       union all
       select 'function ' || p.oid::regprocedure::text from pg_proc p
        where p.pronamespace = 'public'::regnamespace and obj_description(p.oid, 'pg_proc') is null
       order by 1`,
    );
    expect(rows).toEqual([]);
  });

  it("anon and authenticated hold no write privilege on any table", async () => {
    const rows = await db().sql(
      `select c.relname, r.rolname, p.privilege
         from pg_class c
         cross join (values ('anon'), ('authenticated')) r(rolname)
         cross join unnest(array['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']) p(privilege)
        where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p')
          and has_table_privilege(r.rolname, c.oid, p.privilege)
        order by 1, 2, 3`,
    );
    expect(rows).toEqual([]);
  });
});
