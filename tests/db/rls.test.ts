// Row-level security of the foundation tables, tried as every kind of caller: anon,
// users (approved, another one, unapproved), admin and super admin see what they may
// and write nothing; only service_role (the server's secret key) writes directly.
import { beforeAll, describe, expect, it } from "vitest";
import { anon, asUser, service, dbPerFile, type Caller } from "./support";

const db = dbPerFile();

/** Each table, the column naming the user a row belongs to (null: users see no rows). */
const TABLES: Record<string, { owner: string | null; userVisible: boolean }> = {
  profiles: { owner: "id", userVisible: true },
  user_account_data: { owner: "id", userVisible: true },
  credit_ledger: { owner: "user_id", userVisible: true },
  activity_log: { owner: null, userVisible: false },
  mail_outbox: { owner: null, userVisible: false },
  app_settings: { owner: null, userVisible: false },
};

const writes = (table: string, self: string): string[] => {
  const forged: Record<string, string> = {
    profiles: `insert into public.profiles (id, name) values ('${self}', 'Forged')`,
    user_account_data: `insert into public.user_account_data (id, credits, role) values ('${self}', 1000, 'super_admin')`,
    credit_ledger: `insert into public.credit_ledger (user_id, kind, amount, balance_after) values ('${self}', 'bonus', 1000, 1000)`,
    activity_log: "insert into public.activity_log (action) values ('forged')",
    mail_outbox:
      "insert into public.mail_outbox (to_email, kind, subject, body_text) values ('x@x.test', 'x', 'x', 'x')",
    app_settings: "insert into public.app_settings (key, value) values ('approval_mode_forged', '\"auto\"')",
  };
  const change: Record<string, string> = {
    profiles: "name = 'Hacked'",
    user_account_data: "credits = 1000000, role = 'super_admin', approved = true",
    credit_ledger: "amount = 1000",
    activity_log: "action = 'rewritten'",
    mail_outbox: "status = 'sent'",
    app_settings: "value = '\"auto\"'",
  };
  return [
    forged[table],
    `update public.${table} set ${change[table]}`,
    `delete from public.${table}`,
    `truncate public.${table}`,
  ];
};

const people: Record<string, string> = {};
const callers: Record<string, Caller> = {};

async function snapshot(table: string) {
  const [row] = await db().sql(
    `select count(*)::int as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as hash from public.${table} t`,
  );
  return row;
}

beforeAll(async () => {
  people.owner = await db().createUser({ approved: true, credits: 10 });
  people.other = await db().createUser({ approved: true, credits: 5 });
  people.unapproved = await db().createUser({ credits: 3 });
  people.admin = await db().createUser({ role: "admin", approved: true });
  people.super_admin = await db().createUser({ role: "super_admin", approved: true });
  await db().call(asUser(people.owner), "deduct_credits", { user_id: people.owner, amount: 2 });
  const approvedLater = await db().createUser();
  await db().call(asUser(people.admin), "admin_approve_user", { p_user_id: approvedLater });
  await db().call(asUser(people.owner), "update_my_profile", { p_name: "Owner" });
  for (const [who, id] of Object.entries(people)) callers[who] = asUser(id);
  callers.anon = anon;
  // Every table has rows, including rows about each user.
  for (const table of Object.keys(TABLES)) expect((await snapshot(table)).n, table).toBeGreaterThan(0);
});

describe.each(Object.keys(TABLES))("%s", (table) => {
  const { owner, userVisible } = TABLES[table];

  it("anon may not read or write it at all", async () => {
    const before = await snapshot(table);
    expect((await db().as(anon, `select * from public.${table}`)).error).toEqual({
      code: "42501",
      message: `permission denied for table ${table}`,
    });
    for (const sql of writes(table, "7b0c1a4e-0000-4000-8000-000000000a0a")) {
      expect((await db().as(anon, sql)).error?.code, sql).toBe("42501");
    }
    expect(await snapshot(table)).toEqual(before);
  });

  it.each(["owner", "other", "unapproved"])("user (%s) reads only their own rows", async (who) => {
    const res = await db().as<Record<string, unknown>>(callers[who], `select * from public.${table}`);
    if (table === "app_settings") {
      expect(res.error).toEqual({ code: "42501", message: "permission denied for table app_settings" });
      return;
    }
    expect(res.error).toBeNull();
    if (!userVisible || !owner) {
      expect(res.rows).toEqual([]);
      return;
    }
    const theirs = await db().sql(`select count(*)::int as n from public.${table} where ${owner} = $1`, [people[who]]);
    expect(res.rows!.length).toBe(theirs[0].n);
    expect(res.rows!.length).toBeGreaterThan(0);
    expect(new Set(res.rows!.map((r) => r[owner]))).toEqual(new Set([people[who]]));
  });

  it.each(["admin", "super_admin"])("%s reads every row (app_settings only through functions)", async (who) => {
    const res = await db().as(callers[who], `select * from public.${table}`);
    if (table === "app_settings") {
      expect(res.error?.code).toBe("42501");
      return;
    }
    expect(res.error).toBeNull();
    expect(res.rows!.length).toBe((await snapshot(table)).n);
  });

  it.each(["owner", "other", "unapproved", "admin", "super_admin"])("%s cannot write it directly", async (who) => {
    const before = await snapshot(table);
    for (const sql of writes(table, people[who])) {
      expect((await db().as(callers[who], sql)).error?.code, sql).toBe("42501");
    }
    expect(await snapshot(table)).toEqual(before);
  });

  it("service_role reads every row and holds the write privileges", async () => {
    const res = await db().as(service, `select * from public.${table}`);
    expect(res.error).toBeNull();
    expect(res.rows!.length).toBe((await snapshot(table)).n);
    const [privs] = await db().sql(
      `select bool_and(has_table_privilege('service_role', $1, p)) as ok
         from unnest(array['INSERT', 'UPDATE', 'DELETE']) p`,
      [`public.${table}`],
    );
    expect(privs.ok).toBe(true);
  });
});

describe("service_role writes directly", () => {
  it("changes a setting and a profile, queues and marks mail", async () => {
    const res = await db().as(
      service,
      `with s as (update public.app_settings set value = '"manual"' where key = 'approval_mode' returning 1),
            p as (update public.profiles set name = 'Renamed by server' where id = $1 returning 1),
            m as (insert into public.mail_outbox (to_email, kind, subject, body_text)
                  values ('ops@labcash.test', 'ops', 'Hello', 'Body') returning 1)
       select (select count(*) from s)::int as s, (select count(*) from p)::int as p, (select count(*) from m)::int as m`,
      [people.other],
    );
    expect(res.rows).toEqual([{ s: 1, p: 1, m: 1 }]);
    expect((await db().as(service, "delete from public.mail_outbox where kind = 'ops'")).error).toBeNull();
    expect(await db().sql("select name from public.profiles where id = $1", [people.other])).toEqual([
      { name: "Renamed by server" },
    ]);
  });
});
