// Roles and permissions exactly as spec §6: admin = admin or super_admin; super admin =
// super_admin only; read/write need admin; delete/manage_users need super admin;
// unknown permissions and callers without a profile are denied.
import { beforeAll, describe, expect, it } from "vitest";
import { anon, asUser, asUserAtAal1, dbPerFile, type Caller } from "./support";

const db = dbPerFile();
const PERMISSIONS = ["read", "write", "delete", "manage_users", "READ", "publish", ""] as const;

interface Expected {
  is_admin: boolean;
  is_super_admin: boolean;
  allowed: string[];
}

const callers: Record<string, Caller> = {};

beforeAll(async () => {
  callers.user = asUser(await db().createUser({ approved: true }));
  callers.unapproved = asUser(await db().createUser());
  const withFactor = await db().createUser({ approved: true });
  await db().addSecondFactor(withFactor);
  callers.user_with_factor_at_aal1 = asUserAtAal1(withFactor);
  callers.admin = asUser(await db().createUser({ role: "admin", approved: true }));
  callers.super_admin = asUser(await db().createUser({ role: "super_admin", approved: true }));
  const gone = await db().createUser({ role: "super_admin", approved: true });
  await db().sql("delete from public.profiles where id = $1", [gone]);
  await db().sql("delete from public.user_account_data where id = $1", [gone]);
  callers.no_profile = asUser(gone);
  callers.unknown_user = asUser("7b0c1a4e-0000-4000-8000-00000000dead");
  callers.anon = anon;
});

const expected: Record<string, Expected> = {
  user: { is_admin: false, is_super_admin: false, allowed: [] },
  unapproved: { is_admin: false, is_super_admin: false, allowed: [] },
  user_with_factor_at_aal1: { is_admin: false, is_super_admin: false, allowed: [] },
  admin: { is_admin: true, is_super_admin: false, allowed: ["read", "write"] },
  super_admin: { is_admin: true, is_super_admin: true, allowed: ["read", "write", "delete", "manage_users"] },
  no_profile: { is_admin: false, is_super_admin: false, allowed: [] },
  unknown_user: { is_admin: false, is_super_admin: false, allowed: [] },
  anon: { is_admin: false, is_super_admin: false, allowed: [] },
};

describe.each(Object.keys(expected))("as %s", (who) => {
  it("is_admin and is_super_admin", async () => {
    expect(await db().call(callers[who], "is_admin")).toBe(expected[who].is_admin);
    expect(await db().call(callers[who], "is_super_admin")).toBe(expected[who].is_super_admin);
  });

  it("has_permission for every known permission and some unknown ones", async () => {
    const got: string[] = [];
    for (const permission of PERMISSIONS) {
      if (await db().call(callers[who], "has_permission", { permission })) got.push(permission);
    }
    expect(got).toEqual(expected[who].allowed);
    expect(await db().call(callers[who], "has_permission", { permission: null })).toBe(false);
  });
});

describe("role changes take effect at once", () => {
  it("a demoted admin loses admin rights on the next call", async () => {
    const id = await db().createUser({ role: "admin", approved: true });
    expect(await db().call(asUser(id), "has_permission", { permission: "write" })).toBe(true);
    await db().sql("update public.user_account_data set role = 'user' where id = $1", [id]);
    expect(await db().call(asUser(id), "has_permission", { permission: "write" })).toBe(false);
    expect(await db().call(asUser(id), "is_admin")).toBe(false);
  });
});
