// get_site_settings and admin_set_launch_at return the declared public.site_settings now (docs/decisions/007,
// the third batch), with the dispute-resolution body and the promoter nested as declared types
// and the addresses as text arrays. Every page reads them, so the old body (10-settings.sql before
// 20261130300101) runs here word for word beside the new function, for the installed settings, a launch moved and
// removed, and every public setting changed, and both answers are compared as JSON.
import { beforeAll, describe, expect, it } from "vitest";
import { anon, asUser, claimsOf, dbPerFile } from "./support";

const db = dbPerFile();

const OLD_GET_SITE_SETTINGS = `
  select jsonb_build_object(
    'launch_at', private.setting('launch_at'),
    'stamp_price', private.setting('stamp_price'),
    'postal_address', private.setting('postal_address'),
    'complaints_contact', private.setting('complaints_contact'),
    'dispute_resolution_body', private.setting('dispute_resolution_body'),
    'spinner_enabled', private.spinner_enabled(),
    'promoter', jsonb_build_object('name', private.setting('promoter_name'),
                                   'address', private.setting('promoter_address'))) as value`;

const oldAnswer = async () =>
  db().pg.transaction(async (tx) => {
    await tx.query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify(claimsOf(anon))]);
    return (await tx.query<{ value: unknown }>(OLD_GET_SITE_SETTINGS)).rows[0]?.value;
  });

let superAdmin: string;
beforeAll(async () => {
  superAdmin = await db().createUser({ role: "super_admin", approved: true });
});

describe("get_site_settings as a declared type", () => {
  it("answers what the jsonb version did as the settings change, and admin_set_launch_at answers the same", async () => {
    const compare = async () => {
      const now = await db().call(anon, "get_site_settings");
      expect(now).toEqual(await oldAnswer());
      return now;
    };
    await compare();
    const moved = await db().call(asUser(superAdmin), "admin_set_launch_at", {
      p_launch_at: "2027-01-15T09:30:00+01:00",
    });
    expect(moved).toEqual(await compare());
    expect(moved).toMatchObject({ launch_at: "2027-01-15T08:30:00Z" });
    const removed = await db().call(asUser(superAdmin), "admin_set_launch_at", { p_launch_at: null });
    expect(removed).toEqual(await compare());
    expect(removed).toMatchObject({ launch_at: null });

    await db().call(asUser(superAdmin), "admin_update_settings", {
      p: {
        stamp_price: 1.1,
        postal_address: ["Free Entry", "PO Box 1", "Leeds", "LS1 1AA", "United Kingdom"],
        complaints_contact: "help@labcash.example",
        dispute_resolution_body: { name: "Another Body", url: "https://example.org/adr" },
        spinner_enabled: false,
        promoter_name: "Another Promoter Ltd",
        promoter_address: ["1 High Street", "York", "YO1 7HH"],
      },
    });
    expect(await compare()).toMatchObject({
      stamp_price: 1.1,
      spinner_enabled: false,
      promoter: { name: "Another Promoter Ltd", address: ["1 High Street", "York", "YO1 7HH"] },
      dispute_resolution_body: { name: "Another Body", url: "https://example.org/adr" },
    });
  });
});
