// Public site settings: anyone may read the launch countdown's moment; only admins may set
// it, and every change is in the activity log.
import { describe, expect, it } from "vitest";
import { ADMIN_REQUIRED, anon, asUser, dbPerFile } from "./support";

const db = dbPerFile();

/** The public settings of the fair-play rules, as the migration sets them. */
const FAIR_PLAY_DEFAULTS = {
  spinner_enabled: true,
  stamp_price: 0.87,
  postal_address: ["LabCash Free Entry", "PO Box 4021", "Manchester", "M60 1LC"],
  complaints_contact: "complaints@labcash.example",
  dispute_resolution_body: {
    name: "CEDR (Centre for Effective Dispute Resolution)",
    url: "https://www.cedr.com/consumer/",
  },
  // CAP code 8.17: every competition page names the promoter and its address.
  promoter: {
    name: "LabCash Trading Ltd",
    address: ["Unit 4, Lab House", "12 Market Street", "Manchester", "M1 1PW"],
  },
};

describe("get_site_settings", () => {
  it("gives anyone the launch moment, the postal route and the complaints contacts, and nothing private", async () => {
    const settings = await db().call<Record<string, unknown>>(anon, "get_site_settings");
    expect(settings).toEqual({ ...FAIR_PLAY_DEFAULTS, launch_at: "2026-12-12T12:00:00Z" });
  });
});

describe("admin_set_launch_at", () => {
  it("lets an admin move the launch (stored in UTC) or remove it, and logs each change", async () => {
    const admin = await db().createUser({ role: "admin", approved: true });
    const moved = await db().call(asUser(admin), "admin_set_launch_at", { p_launch_at: "2027-01-15T09:30:00+01:00" });
    expect(moved).toEqual({ ...FAIR_PLAY_DEFAULTS, launch_at: "2027-01-15T08:30:00Z" });
    expect(await db().call(anon, "get_site_settings")).toEqual({
      ...FAIR_PLAY_DEFAULTS,
      launch_at: "2027-01-15T08:30:00Z",
    });

    expect(await db().call(asUser(admin), "admin_set_launch_at", { p_launch_at: null })).toEqual({
      ...FAIR_PLAY_DEFAULTS,
      launch_at: null,
    });
    const log = await db().sql(
      "select actor_id, action, details from public.activity_log where action = 'settings.launch_at' order by id",
    );
    expect(log).toEqual([
      { actor_id: admin, action: "settings.launch_at", details: { launch_at: "2027-01-15T08:30:00Z" } },
      { actor_id: admin, action: "settings.launch_at", details: { launch_at: null } },
    ]);
    const row = await db().sql("select updated_by from public.app_settings where key = 'launch_at'");
    expect(row).toEqual([{ updated_by: admin }]);
  });

  it("is refused to users and to anonymous callers, and changes nothing", async () => {
    const user = await db().createUser({ approved: true });
    const before = await db().call(anon, "get_site_settings");
    expect(
      (await db().rpc(asUser(user), "admin_set_launch_at", { p_launch_at: "2030-01-01T00:00:00Z" })).error,
    ).toEqual(ADMIN_REQUIRED);
    expect((await db().rpc(anon, "admin_set_launch_at", { p_launch_at: "2030-01-01T00:00:00Z" })).error).toEqual({
      code: "42501",
      message: "permission denied for function admin_set_launch_at",
    });
    expect(await db().call(anon, "get_site_settings")).toEqual(before);
  });
});

describe("admin_update_settings", () => {
  it("changes every public setting, nested ones included, as get_site_settings then answers them", async () => {
    const superAdmin = await db().createUser({ role: "super_admin", approved: true });
    const changed = {
      stamp_price: 1.1,
      postal_address: ["Free Entry", "PO Box 1", "Leeds", "LS1 1AA", "United Kingdom"],
      complaints_contact: "help@labcash.example",
      dispute_resolution_body: { name: "Another Body", url: "https://example.org/adr" },
      spinner_enabled: false,
    };
    const promoter = { name: "Another Promoter Ltd", address: ["1 High Street", "York", "YO1 7HH"] };
    const before = await db().call<{ launch_at: string | null }>(anon, "get_site_settings");
    await db().call(asUser(superAdmin), "admin_update_settings", {
      p: { ...changed, promoter_name: promoter.name, promoter_address: promoter.address },
    });
    expect(await db().call(anon, "get_site_settings")).toEqual({
      ...FAIR_PLAY_DEFAULTS,
      ...changed,
      promoter,
      launch_at: before.launch_at,
    });
  });
});
