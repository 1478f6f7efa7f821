// The authorization matrix of the admin API: every function in schema public
// whose name starts with admin_, read from pg_proc so that a function added later is covered
// without touching this file, called as each kind of caller. Zero unexpected grants: anon and
// players are refused, admins run everything but the super-admin-only functions (refused with
// super_admin_required), super admins run everything, and the secret key alone is nobody.
//
// Every argument is null: the guard must refuse before any argument is looked at, and an
// admin's call with nulls fails, if at all, on its input, never on who is calling.
import { beforeAll, describe, expect, it } from "vitest";
import { anon, asUser, asUserAtAal1, dbPerFile, service, SUPER_ADMIN_ONLY, type Caller, type DbError } from "./support";

const db = dbPerFile();

/** Admin functions only a super admin may run (spec §6: delete and manage_users), with the reason. */
/** The refusals that are about the caller, not the input. */
const AUTH_HINTS = new Set(["not_authenticated", "admin_required", "super_admin_required"]);
const isPermissionDenied = (e: DbError) => e.code === "42501" && !e.hint && /permission denied/.test(e.message);
const isAuthRefusal = (e: DbError | null) => !!e && (isPermissionDenied(e) || AUTH_HINTS.has(e.hint ?? ""));

type AdminFunction = { name: string; signature: string; call: string };

let functions: AdminFunction[] = [];
const callers: Record<string, Caller> = {};

beforeAll(async () => {
  const rows = await db().sql<{ name: string; signature: string; types: string[] | null; retset: boolean }>(
    `select p.proname as name, p.oid::regprocedure::text as signature, p.proretset as retset,
            (select array_agg(format_type(t, null) order by i) from unnest(p.proargtypes::oid[]) with ordinality u(t, i)) as types
       from pg_proc p
      where p.pronamespace = 'public'::regnamespace and p.proname like 'admin\\_%'
      order by 1, 2`,
  );
  functions = rows.map((r) => {
    const args = (r.types ?? []).map((t) => `null::${t}`).join(", ");
    return {
      name: r.name,
      signature: r.signature,
      call: r.retset ? `select * from public.${r.name}(${args})` : `select public.${r.name}(${args})`,
    };
  });
  callers.anon = anon;
  callers.service = service;
  callers.unapproved = asUser(await db().createUser({ name: "Una Unapproved" }));
  callers.player = asUser(await db().createPlayer({ name: "Pia Player" }));
  // A player with two-step on whose session has not given the code: still told they are no admin.
  const withFactor = await db().createPlayer({ name: "Fay Factor" });
  await db().addSecondFactor(withFactor);
  callers.playerWithFactorAtAal1 = asUserAtAal1(withFactor);
  callers.admin = asUser(await db().createAdmin());
  callers.superAdmin = asUser(await db().createUser({ name: "Sol Super", role: "super_admin", approved: true }));
});

async function outcomes(caller: Caller) {
  const results: { fn: string; error: DbError | null }[] = [];
  for (const f of functions) {
    const res = await db().as(caller, f.call);
    results.push({ fn: f.signature, error: res.error });
  }
  return results;
}

describe("the admin API × every kind of caller", () => {
  it("covers every admin_ function there is, and the super-admin-only list names real ones", () => {
    expect(functions.length).toBeGreaterThanOrEqual(25);
    const names = new Set(functions.map((f) => f.name));
    expect(Object.keys(SUPER_ADMIN_ONLY).filter((n) => !names.has(n))).toEqual([]);
  });

  it("anon may execute none of them", async () => {
    const granted = await db().sql(
      `select p.oid::regprocedure::text as fn from pg_proc p
        where p.pronamespace = 'public'::regnamespace and p.proname like 'admin\\_%'
          and has_function_privilege('anon', p.oid, 'EXECUTE')`,
    );
    expect(granted).toEqual([]);
    const allowed = (await outcomes(callers.anon)).filter((r) => !isAuthRefusal(r.error));
    expect(allowed).toEqual([]);
  });

  const labels = {
    unapproved: "an unapproved user",
    player: "an approved player",
    playerWithFactorAtAal1: "a player with a second factor at aal1",
  } as const;
  for (const who of ["unapproved", "player", "playerWithFactorAtAal1"] as const) {
    it(`${labels[who]} is refused by every one, with the spec's message`, async () => {
      const wrong = (await outcomes(callers[who])).filter((r) => {
        const expected = SUPER_ADMIN_ONLY[r.fn.replace(/\(.*$/, "")] ? "super_admin_required" : "admin_required";
        return !(r.error && (r.error.hint === expected || isPermissionDenied(r.error)));
      });
      expect(wrong).toEqual([]);
    });
  }

  it("the secret key alone is nobody: refused by every one", async () => {
    const allowed = (await outcomes(callers.service)).filter((r) => !isAuthRefusal(r.error));
    expect(allowed).toEqual([]);
  });

  it("an admin runs every one except the super-admin-only ones, which say super_admin_required", async () => {
    const results = await outcomes(callers.admin);
    const wrong = results.filter((r) => {
      const superOnly = r.fn.replace(/\(.*$/, "") in SUPER_ADMIN_ONLY;
      return superOnly ? r.error?.hint !== "super_admin_required" : isAuthRefusal(r.error);
    });
    expect(wrong).toEqual([]);
  });

  it("a super admin runs every one", async () => {
    const refused = (await outcomes(callers.superAdmin)).filter((r) => isAuthRefusal(r.error));
    expect(refused).toEqual([]);
  });
});
