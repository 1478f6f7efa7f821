// Admin two-step verification: an admin's powers need a session that
// passed a second factor, which the token says with `aal: "aal2"` (a password alone gives aal1).
// At aal1 an admin or super admin is refused by every admin function with 'Two-step verification
// required' (aal2_required), and reads only their own rows through row-level security, like a
// player; at aal2 the same calls work. Players, signed-out callers and anon are refused exactly as
// before, whatever their session's level.
import { beforeAll, describe, expect, it } from "vitest";
import {
  AAL2_REQUIRED,
  ADMIN_REQUIRED,
  NOT_AUTHENTICATED,
  SUPER_ADMIN_ONLY,
  SUPER_ADMIN_REQUIRED,
  anon,
  asUser,
  asUserAtAal1,
  dbPerFile,
  type Caller,
  type DbError,
} from "./support";

const db = dbPerFile();

let admin: string;
let superAdmin: string;
let player: string;

beforeAll(async () => {
  admin = await db().createAdmin();
  superAdmin = await db().createUser({ name: "Sol Super", role: "super_admin", approved: true });
  player = await db().createPlayer({ name: "Pia Player", credits: "7.50" });
});

/** The refusal of an RPC that must be refused. */
async function refusal(caller: Caller, fn: string, args: Record<string, unknown> = {}): Promise<DbError> {
  const res = await db().rpc(caller, fn, args);
  if (!res.error) throw new Error(`${fn}: expected a refusal, the call succeeded`);
  return res.error;
}

describe("private.session_is_aal2 reads the token's aal", () => {
  it("is true for aal2 only: aal1, a token without aal, a malformed level and no token are not", async () => {
    const cases: Array<[string, boolean]> = [
      ['{"sub":"00000000-0000-4000-8000-000000000001","role":"authenticated","aal":"aal2"}', true],
      ['{"sub":"00000000-0000-4000-8000-000000000001","role":"authenticated","aal":"aal1"}', false],
      ['{"sub":"00000000-0000-4000-8000-000000000001","role":"authenticated"}', false],
      ['{"sub":"00000000-0000-4000-8000-000000000001","role":"authenticated","aal":"AAL2"}', false],
      ['{"role":"anon"}', false],
      ["", false],
    ];
    for (const [claims, expected] of cases) {
      const [row] = await db().pg.transaction(async (tx) => {
        await tx.query("select set_config('request.jwt.claims', $1, true)", [claims]);
        return (await tx.query<{ aal2: boolean }>("select private.session_is_aal2() as aal2")).rows;
      });
      expect(row.aal2, claims).toBe(expected);
    }
  });
});

describe("is_admin, is_super_admin and has_permission need aal2", () => {
  it("an admin and a super admin at aal1 are neither, and have no permission; at aal2 they are", async () => {
    for (const id of [admin, superAdmin]) {
      expect(await db().call(asUserAtAal1(id), "is_admin")).toBe(false);
      expect(await db().call(asUserAtAal1(id), "is_super_admin")).toBe(false);
      for (const permission of ["read", "write", "delete", "manage_users"]) {
        expect(await db().call(asUserAtAal1(id), "has_permission", { permission }), permission).toBe(false);
      }
    }
    expect(await db().call(asUser(admin), "is_admin")).toBe(true);
    expect(await db().call(asUser(admin), "is_super_admin")).toBe(false);
    expect(await db().call(asUser(superAdmin), "is_admin")).toBe(true);
    expect(await db().call(asUser(superAdmin), "is_super_admin")).toBe(true);
    expect(await db().call(asUser(superAdmin), "has_permission", { permission: "manage_users" })).toBe(true);
  });

  it("a player is neither at aal1 or aal2", async () => {
    for (const caller of [asUser(player), asUserAtAal1(player)]) {
      expect(await db().call(caller, "is_admin")).toBe(false);
      expect(await db().call(caller, "is_super_admin")).toBe(false);
    }
  });
});

describe("representative admin RPCs", () => {
  it("an admin and a super admin at aal1 are refused with aal2_required, and nothing changes", async () => {
    const pending = await db().createUser({ name: "Pat Pending" });
    for (const id of [admin, superAdmin]) {
      const aal1 = asUserAtAal1(id);
      expect(await refusal(aal1, "admin_approve_user", { p_user_id: pending })).toEqual(AAL2_REQUIRED);
      expect(await refusal(aal1, "admin_list_pending_approvals")).toEqual(AAL2_REQUIRED);
      expect(await refusal(aal1, "admin_list_users", {})).toEqual(AAL2_REQUIRED);
      expect(await refusal(aal1, "admin_get_user", { p_user_id: player })).toEqual(AAL2_REQUIRED);
      expect(await refusal(aal1, "admin_dashboard")).toEqual(AAL2_REQUIRED);
      expect(await refusal(aal1, "run_due_draws")).toEqual(AAL2_REQUIRED);
      expect(await refusal(aal1, "get_credit_balance", { user_id: player })).toEqual(AAL2_REQUIRED);
    }
    expect((await db().account(pending)).approved).toBe(false);
  });

  it("super-admin-only: a super admin at aal1 hears aal2_required, a plain admin super_admin_required at either level", async () => {
    const target = await db().createPlayer({ name: "Rory Role" });
    const setRole = { p_user_id: target, p_role: "admin" };
    expect(await refusal(asUserAtAal1(superAdmin), "admin_set_user_role", setRole)).toEqual(AAL2_REQUIRED);
    expect(await refusal(asUserAtAal1(superAdmin), "admin_delete_user", { p_user_id: target })).toEqual(AAL2_REQUIRED);
    // Two-step would not help a plain admin here, so they are not asked for it.
    expect(await refusal(asUserAtAal1(admin), "admin_set_user_role", setRole)).toEqual(SUPER_ADMIN_REQUIRED);
    expect(await refusal(asUser(admin), "admin_set_user_role", setRole)).toEqual(SUPER_ADMIN_REQUIRED);
    expect((await db().account(target)).role).toBe("user");
  });

  it("at aal2 the same calls work", async () => {
    const pending = await db().createUser({ name: "Pam Pending" });
    const listed = await db().call<Array<{ id: string }>>(asUser(admin), "admin_list_pending_approvals");
    expect(listed.map((r) => r.id)).toContain(pending);
    const approved = await db().call<{ approved: boolean; approved_by: string }>(asUser(admin), "admin_approve_user", {
      p_user_id: pending,
    });
    expect(approved).toMatchObject({ approved: true, approved_by: admin });
    const page = await db().call<{ rows: Array<{ id: string }> }>(asUser(superAdmin), "admin_list_users", {
      p_search: player,
    });
    expect(page.rows.map((u) => u.id)).toEqual([player]);
    expect(await db().call(asUser(admin), "admin_get_user", { p_user_id: player })).toMatchObject({
      user: { id: player },
    });
    expect(await db().call(asUser(admin), "admin_dashboard")).toHaveProperty("counts");
    expect(await db().call(asUser(admin), "get_credit_balance", { user_id: player })).toBe("7.50");

    const target = await db().createPlayer({ name: "Rhys Role" });
    const changed = await db().call<{ role: string }>(asUser(superAdmin), "admin_set_user_role", {
      p_user_id: target,
      p_role: "admin",
    });
    expect(changed.role).toBe("admin");
  });

  it("a player is refused with admin_required (super_admin_required) at aal1 and aal2", async () => {
    for (const caller of [asUser(player), asUserAtAal1(player)]) {
      expect(await refusal(caller, "admin_approve_user", { p_user_id: player })).toEqual(ADMIN_REQUIRED);
      expect(await refusal(caller, "admin_list_pending_approvals")).toEqual(ADMIN_REQUIRED);
      expect(await refusal(caller, "admin_dashboard")).toEqual(ADMIN_REQUIRED);
      expect(await refusal(caller, "get_credit_balance", { user_id: admin })).toEqual(ADMIN_REQUIRED);
      expect(await refusal(caller, "admin_set_user_role", { p_user_id: admin, p_role: "user" })).toEqual(
        SUPER_ADMIN_REQUIRED,
      );
    }
    // Their own balance needs no admin, at either level.
    expect(await db().call(asUserAtAal1(player), "get_credit_balance", { user_id: player })).toBe("7.50");
  });

  it("a caller with no user (no claims) is not_authenticated; anon may not execute them at all", async () => {
    const nobody: Caller = { role: "authenticated" };
    expect(await refusal(nobody, "admin_approve_user", { p_user_id: player })).toEqual(NOT_AUTHENTICATED);
    expect(await refusal(nobody, "admin_list_pending_approvals")).toEqual(NOT_AUTHENTICATED);
    expect(await refusal(nobody, "admin_set_user_role", { p_user_id: player, p_role: "admin" })).toEqual(
      NOT_AUTHENTICATED,
    );
    const denied = await refusal(anon, "admin_list_pending_approvals");
    expect(denied.code).toBe("42501");
    expect(denied.message).toMatch(/permission denied/);
  });
});

describe("every admin_ function at aal1", () => {
  it("refuses an admin and a super admin at aal1 with aal2_required (a plain admin's super-admin-only ones: super_admin_required)", async () => {
    const fns = await db().sql<{ name: string; signature: string; types: string[] | null; retset: boolean }>(
      `select p.proname as name, p.oid::regprocedure::text as signature, p.proretset as retset,
              (select array_agg(format_type(t, null) order by i) from unnest(p.proargtypes::oid[]) with ordinality u(t, i)) as types
         from pg_proc p
        where p.pronamespace = 'public'::regnamespace and p.proname like 'admin\\_%'
        order by 1, 2`,
    );
    expect(fns.length).toBeGreaterThanOrEqual(25);
    const wrong: Array<{ who: string; fn: string; error: DbError | null }> = [];
    for (const f of fns) {
      // Every argument null: the guard must refuse before any argument is looked at.
      const args = (f.types ?? []).map((t) => `null::${t}`).join(", ");
      const sql = f.retset ? `select * from public.${f.name}(${args})` : `select public.${f.name}(${args})`;
      for (const [who, id] of [
        ["admin", admin],
        ["super admin", superAdmin],
      ] as const) {
        const expected = who === "admin" && f.name in SUPER_ADMIN_ONLY ? SUPER_ADMIN_REQUIRED : AAL2_REQUIRED;
        const { error } = await db().as(asUserAtAal1(id), sql);
        if (JSON.stringify(error) !== JSON.stringify(expected)) wrong.push({ who, fn: f.signature, error });
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe("row-level security: an aal1 admin reads like a player", () => {
  const count = async (caller: Caller, table: string) => {
    const res = await db().as<{ id: string }>(caller, `select id from public.${table}`);
    if (res.error) throw new Error(res.error.message);
    return res.rows.map((r) => r.id);
  };

  it("profiles and user_account_data: only their own row at aal1, every row at aal2", async () => {
    for (const table of ["profiles", "user_account_data"]) {
      const [{ n }] = await db().sql<{ n: number }>(`select count(*)::int as n from public.${table}`);
      expect(n).toBeGreaterThan(3);
      for (const id of [admin, superAdmin]) {
        expect(await count(asUserAtAal1(id), table), table).toEqual([id]);
        expect(await count(asUser(id), table), table).toHaveLength(n);
      }
      expect(await count(asUser(player), table), table).toEqual([player]);
    }
  });

  it("draft competitions stay hidden from an aal1 admin", async () => {
    const draft = await db().createCompetition(admin, { title: "Hidden draft" }, false);
    const seen = async (caller: Caller) =>
      (await db().as<{ id: string }>(caller, "select id from public.competitions where id = $1", [draft])).rows;
    expect(await seen(asUserAtAal1(admin))).toEqual([]);
    expect(await seen(asUser(admin))).toEqual([{ id: draft }]);
  });
});

describe("admin_record_two_step_reset", () => {
  it("lets a super admin at aal2 reset another user's, audited; refuses their own, an unknown user, aal1 and plain admins", async () => {
    expect(await refusal(asUser(admin), "admin_record_two_step_reset", { p_user_id: player })).toEqual(
      SUPER_ADMIN_REQUIRED,
    );
    expect(await refusal(asUserAtAal1(superAdmin), "admin_record_two_step_reset", { p_user_id: player })).toEqual(
      AAL2_REQUIRED,
    );
    expect(await refusal(asUser(superAdmin), "admin_record_two_step_reset", { p_user_id: superAdmin })).toMatchObject({
      hint: "invalid_input",
      message: "You cannot reset your own two-step verification. Ask another super admin.",
    });
    expect(
      await refusal(asUser(superAdmin), "admin_record_two_step_reset", {
        p_user_id: "00000000-0000-4000-8000-00000000dead",
      }),
    ).toMatchObject({ code: "PT404", hint: "user_not_found" });
    const logged = async () =>
      (
        await db().sql<{ n: number }>(
          `select count(*)::int as n from public.activity_log where action = 'user.two_step_reset' and subject_id = $1`,
          [player],
        )
      )[0].n;
    expect(await logged()).toBe(0);
    const res = await db().rpc(asUser(superAdmin), "admin_record_two_step_reset", { p_user_id: player });
    expect(res.error).toBeNull();
    expect(await logged()).toBe(1);
  });
});
