// Admin settings and the complaints queue: admin_get_settings and
// admin_update_settings (every value checked in SQL, all or nothing, money settings for super admins,
// each change audited with old and new values), and admin_get_complaint.
import { describe, expect, it } from "vitest";
import { ADMIN_REQUIRED, anon, asUser, dbPerFile, NOT_AUTHENTICATED, service } from "./support";

const db = dbPerFile();

const superAdmin = () => db().createUser({ name: "Sue Super", role: "super_admin", approved: true });

type Settings = {
  settings: Record<string, unknown>;
  super_admin_keys: string[];
  can_change_money_settings: boolean;
  updated: Record<string, { at: string; by: string | null }>;
  changed?: string[];
};

async function stored(key: string): Promise<unknown> {
  const [row] = await db().sql<{ value: unknown }>("select value from public.app_settings where key = $1", [key]);
  return row?.value;
}

async function settingsLog(key: string) {
  return db().sql<{
    actor_id: string;
    subject_id: string | null;
    details: Record<string, { old: unknown; new: unknown }>;
  }>("select actor_id, subject_id, details from public.activity_log where action = $1 order by id", [
    `settings.${key}`,
  ]);
}

async function settingsLogCount(): Promise<number> {
  const [{ n }] = await db().sql<{ n: number }>(
    "select count(*)::int as n from public.activity_log where action like 'settings.%'",
  );
  return n;
}

const number = (value: unknown) => Number(value);

describe("admin_get_settings", () => {
  it("gives every setting of the screen, the money keys and whether the caller may change them", async () => {
    const admin = await db().createAdmin();
    const got = await db().call<Settings>(asUser(admin), "admin_get_settings");
    expect(Object.keys(got.settings).sort()).toEqual(
      [
        "approval_mode",
        "top_up_min",
        "top_up_max",
        "bonus_enabled",
        "bonus_tiers",
        "credit_card_monthly_cap",
        "large_adjustment_threshold",
        "stamp_price",
        "postal_window_working_days",
        "postal_address",
        "launch_at",
        "complaints_contact",
        "dispute_resolution_body",
        "spinner_enabled",
        "skill_answer_cooldown_minutes",
        "promoter_name",
        "promoter_address",
        "referral_credit",
        "referral_monthly_cap",
        "instant_win_max_live_percent",
        "site_url",
        "limit_increase_delay_hours",
        "sign_up_digest",
      ].sort(),
    );
    expect(got.settings).toMatchObject({
      site_url: "http://localhost:3000",
      limit_increase_delay_hours: 24,
      instant_win_max_live_percent: 50,
      approval_mode: "manual",
      skill_answer_cooldown_minutes: 10,
      bonus_enabled: true,
      spinner_enabled: true,
      sign_up_digest: false,
      postal_window_working_days: 2,
      complaints_contact: "complaints@labcash.example",
    });
    expect(number(got.settings.large_adjustment_threshold)).toBe(100);
    expect(number(got.settings.stamp_price)).toBe(0.87);
    expect(got.super_admin_keys.sort()).toEqual(
      [
        "bonus_enabled",
        "bonus_tiers",
        "credit_card_monthly_cap",
        "large_adjustment_threshold",
        "top_up_max",
        "top_up_min",
        "referral_credit",
        "referral_monthly_cap",
      ].sort(),
    );
    expect(got.can_change_money_settings).toBe(false);
    expect(
      (await db().call<Settings>(asUser(await superAdmin()), "admin_get_settings")).can_change_money_settings,
    ).toBe(true);
  });

  it("refuses players, unapproved users, anon and the secret key alone", async () => {
    const player = await db().createPlayer();
    const unapproved = await db().createUser();
    for (const caller of [asUser(player), asUser(unapproved)]) {
      expect((await db().rpc(caller, "admin_get_settings")).error).toMatchObject(ADMIN_REQUIRED);
      expect((await db().rpc(caller, "admin_update_settings", { p: { stamp_price: 1 } })).error).toMatchObject(
        ADMIN_REQUIRED,
      );
    }
    expect((await db().rpc(service, "admin_update_settings", { p: { stamp_price: 1 } })).error).toMatchObject(
      NOT_AUTHENTICATED,
    );
    const denied = await db().rpc(anon, "admin_update_settings", { p: { stamp_price: 1 } });
    expect(denied.error?.code).toBe("42501");
    expect(number(await stored("stamp_price"))).toBe(0.87);
  });
});

describe("admin_update_settings", () => {
  it("saves an admin's settings, normalised, and audits each change with its old and new value", async () => {
    const admin = await db().createAdmin();
    const got = await db().call<Settings>(asUser(admin), "admin_update_settings", {
      p: {
        approval_mode: "auto",
        stamp_price: 0.9,
        postal_window_working_days: 3,
        postal_address: ["  LabCash Entries ", "PO Box 1", "Leeds", "ls1 4ap"],
        launch_at: "2027-01-02T10:30:00+00:00",
        complaints_contact: " help@labcash.example ",
        dispute_resolution_body: { name: "The Ombudsman", url: "https://ombudsman.example/complaints" },
        spinner_enabled: false,
        // Unchanged: not audited.
        large_adjustment_threshold: 100,
      },
    });
    expect(got.changed).toEqual([
      "approval_mode",
      "complaints_contact",
      "dispute_resolution_body",
      "launch_at",
      "postal_address",
      "postal_window_working_days",
      "spinner_enabled",
      "stamp_price",
    ]);
    expect(got.settings).toMatchObject({
      approval_mode: "auto",
      postal_window_working_days: 3,
      postal_address: ["LabCash Entries", "PO Box 1", "Leeds", "ls1 4ap"],
      launch_at: "2027-01-02T10:30:00Z",
      complaints_contact: "help@labcash.example",
      spinner_enabled: false,
    });
    expect(got.updated.stamp_price.by).toBe("Ada Admin");

    // The public settings follow, and so does stamp parity on a competition (50p tickets: 0.90 / 0.50 → 2).
    const site = await db().call<Record<string, unknown>>(anon, "get_site_settings");
    expect(site).toMatchObject({
      complaints_contact: "help@labcash.example",
      dispute_resolution_body: { name: "The Ombudsman", url: "https://ombudsman.example/complaints" },
      launch_at: "2027-01-02T10:30:00Z",
    });
    expect(number(site.stamp_price)).toBe(0.9);

    const [log] = await settingsLog("stamp_price");
    expect(log.actor_id).toBe(admin);
    expect(log.subject_id).toBeNull();
    expect(number(log.details.stamp_price.old)).toBe(0.87);
    expect(number(log.details.stamp_price.new)).toBe(0.9);
    expect((await settingsLog("approval_mode"))[0].details).toEqual({ approval_mode: { old: "manual", new: "auto" } });
    expect((await settingsLog("spinner_enabled"))[0].details).toEqual({ spinner_enabled: { old: true, new: false } });
    expect(await settingsLog("large_adjustment_threshold")).toEqual([]);

    // Saving the same values again changes and logs nothing.
    const again = await db().call<Settings>(asUser(admin), "admin_update_settings", {
      p: { stamp_price: 0.9, spinner_enabled: false },
    });
    expect(again.changed).toEqual([]);
    expect(await settingsLog("stamp_price")).toHaveLength(1);

    // The launch countdown can be removed.
    await db().call(asUser(admin), "admin_update_settings", { p: { launch_at: null } });
    expect(await stored("launch_at")).toBeNull();
  });

  it("lets only a super admin change the money settings; an admin may save them unchanged", async () => {
    const admin = await db().createAdmin();
    const boss = await superAdmin();
    const before = {
      top_up_min: await stored("top_up_min"),
      top_up_max: await stored("top_up_max"),
      bonus_tiers: await stored("bonus_tiers"),
    };
    // The file shares one database: earlier tests may have changed the stamp price.
    const stampBefore = number(await stored("stamp_price"));
    const stampLogs = (await settingsLog("stamp_price")).length;
    const refused = await db().rpc(asUser(admin), "admin_update_settings", {
      p: { stamp_price: 0.95, top_up_max: 6000 },
    });
    expect(refused.error).toMatchObject({ code: "42501", hint: "super_admin_required" });
    expect(refused.error?.message).toMatch(/^Access denied: Super admin privileges required/);
    // Nothing half-saved: the stamp price (an admin's to change) did not change either.
    expect(number(await stored("stamp_price"))).toBe(stampBefore);
    expect(await settingsLog("stamp_price")).toHaveLength(stampLogs);

    const unchanged = await db().call<Settings>(asUser(admin), "admin_update_settings", {
      p: { stamp_price: 0.95, top_up_min: number(before.top_up_min), top_up_max: number(before.top_up_max) },
    });
    expect(unchanged.changed).toEqual(["stamp_price"]);

    const saved = await db().call<Settings>(asUser(boss), "admin_update_settings", {
      p: {
        top_up_min: 10,
        top_up_max: 2500.5,
        bonus_enabled: false,
        bonus_tiers: [
          { from: 500, percent: 7.5 },
          { from: 100, percent: 3 },
        ],
        credit_card_monthly_cap: 0,
        large_adjustment_threshold: 250,
      },
    });
    expect(saved.changed).toEqual([
      "bonus_enabled",
      "bonus_tiers",
      "credit_card_monthly_cap",
      "large_adjustment_threshold",
      "top_up_max",
      "top_up_min",
    ]);
    // Tiers are stored by amount.
    expect(
      (saved.settings.bonus_tiers as { from: unknown; percent: unknown }[]).map((t) => [
        number(t.from),
        number(t.percent),
      ]),
    ).toEqual([
      [100, 3],
      [500, 7.5],
    ]);
    const [tiersLog] = await settingsLog("bonus_tiers");
    expect(tiersLog.actor_id).toBe(boss);
    expect(tiersLog.details.bonus_tiers.old).toEqual(before.bonus_tiers);

    // The rules follow: the top-up page's limits and the threshold a plain admin may adjust.
    const player = await db().createPlayer();
    const quote = await db().call<{ min: unknown; max: unknown; bonus_enabled: boolean }>(
      asUser(player),
      "get_top_up_options",
    );
    expect(number(quote.min)).toBe(10);
    expect(number(quote.max)).toBe(2500.5);
    expect(quote.bonus_enabled).toBe(false);
    const adjusted = await db().rpc(asUser(admin), "admin_adjust_credit", {
      p_user_id: player,
      p_amount: 200,
      p_reason: "Goodwill after an outage",
    });
    expect(adjusted.error).toBeNull();
  });

  it("lets a plain admin tighten the instant-win share (not a money setting), audited", async () => {
    const admin = await db().createAdmin();
    const got = await db().call<Settings>(asUser(admin), "admin_update_settings", {
      p: { instant_win_max_live_percent: 30 },
    });
    expect(got.changed).toEqual(["instant_win_max_live_percent"]);
    expect(got.settings.instant_win_max_live_percent).toBe(30);
    expect(await stored("instant_win_max_live_percent")).toBe(30);
    const [log] = await settingsLog("instant_win_max_live_percent");
    expect(log).toMatchObject({ actor_id: admin, details: { instant_win_max_live_percent: { old: 50, new: 30 } } });
    await db().call(asUser(admin), "admin_update_settings", { p: { instant_win_max_live_percent: 50 } });
  });

  it("lets an admin set the site URL and the wait before a higher monthly limit, normalised and audited", async () => {
    const admin = await db().createAdmin();
    const got = await db().call<Settings>(asUser(admin), "admin_update_settings", {
      p: { site_url: "https://labcash.example/", limit_increase_delay_hours: 48 },
    });
    expect(got.changed).toEqual(["limit_increase_delay_hours", "site_url"]);
    expect(await stored("site_url")).toBe("https://labcash.example");
    expect(await stored("limit_increase_delay_hours")).toBe(48);
    const [log] = await settingsLog("site_url");
    expect(log).toMatchObject({
      actor_id: admin,
      details: { site_url: { old: "http://localhost:3000", new: "https://labcash.example" } },
    });
    await db().call(asUser(admin), "admin_update_settings", {
      p: { site_url: "http://localhost:3000", limit_increase_delay_hours: 24 },
    });
  });

  it("refuses each bad value with invalid_input and a message naming it, and saves nothing", async () => {
    const boss = await superAdmin();
    const stampBefore = number(await stored("stamp_price"));
    const logsBefore = await settingsLogCount();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{}, /Send the settings to change/],
      [{ colour: "blue" }, /Unknown setting: colour/],
      [{ approval_mode: "sometimes" }, /Approval mode must be manual or auto/],
      [{ top_up_min: "5" }, /The top-up minimum must be an amount in pounds/],
      [{ top_up_min: 0.5 }, /The top-up minimum must be from £1\.00 to £10,000\.00/],
      [{ top_up_max: 10.005 }, /The top-up maximum must be in pounds and pence/],
      [
        { top_up_min: 600, top_up_max: 500 },
        /The top-up minimum \(£600\.00\) must not be more than the maximum \(£500\.00\)/,
      ],
      [{ top_up_min: 6000 }, /The top-up minimum \(£6,000\.00\) must not be more than the maximum/],
      [{ bonus_enabled: "yes" }, /Bonuses must be on or off/],
      [{ bonus_tiers: { from: 50 } }, /Bonus tiers must be a list/],
      [{ bonus_tiers: [{ from: 50 }] }, /Bonus tier 1 must have a top-up amount \(from\) and a percent/],
      [{ bonus_tiers: [{ from: 50, percent: 2, extra: 1 }] }, /Bonus tier 1 must have/],
      [
        {
          bonus_tiers: [
            { from: 50, percent: 2 },
            { from: 0, percent: 2 },
          ],
        },
        /Bonus tier 2: the top-up amount must be from £1\.00/,
      ],
      [{ bonus_tiers: [{ from: 50, percent: 0 }] }, /Bonus tier 1: the percent must be more than 0 and at most 100/],
      [{ bonus_tiers: [{ from: 50, percent: 101 }] }, /Bonus tier 1: the percent/],
      [
        {
          bonus_tiers: [
            { from: 50, percent: 2 },
            { from: 50.0, percent: 3 },
          ],
        },
        /Two bonus tiers start at the same/,
      ],
      [{ bonus_tiers: Array.from({ length: 11 }, (_, i) => ({ from: i + 1, percent: 1 })) }, /at most 10 bonus tiers/],
      [{ credit_card_monthly_cap: -1 }, /The credit-card monthly cap must be from £0\.00/],
      [{ large_adjustment_threshold: 100001 }, /The large-adjustment threshold must be from £0\.00 to £100,000\.00/],
      [{ stamp_price: 0 }, /The stamp price must be from £0\.01 to £10\.00/],
      [{ postal_window_working_days: 1.5 }, /whole number of working days from 1 to 20/],
      [{ postal_window_working_days: 0 }, /whole number of working days from 1 to 20/],
      [{ postal_address: ["Only one line SW1A 1AA"] }, /The postal address must have 2 to 8 lines/],
      [{ postal_address: ["LabCash", ""] }, /Each line of the postal address must be 1 to 100 characters/],
      [{ postal_address: ["LabCash", "Somewhere"] }, /must end with a UK postcode/],
      [{ launch_at: "next tuesday" }, /The launch date must be a date and time/],
      [{ launch_at: 12 }, /The launch date must be a date and time/],
      [{ launch_at: "3001-01-01T00:00:00Z" }, /from the year 2000 to 2999/],
      [{ complaints_contact: "not an address" }, /The complaints contact must be an e-mail address/],
      [{ dispute_resolution_body: { name: "Body" } }, /must have a name and a web address/],
      [{ dispute_resolution_body: { name: "Body", url: "http://insecure.example" } }, /must start with https:\/\//],
      [{ dispute_resolution_body: { name: "B", url: "https://body.example" } }, /name must be 2 to 200 characters/],
      [{ spinner_enabled: null }, /The LabSpinner switch must be on or off/],
      [{ promoter_name: " " }, /The promoter's name must be 2 to 200 characters/],
      [{ promoter_name: 12 }, /The promoter's name must be text/],
      [{ promoter_address: ["Lab House M1 1PW"] }, /The promoter's address must have 2 to 8 lines/],
      [{ promoter_address: ["Lab House", ""] }, /Each line of the promoter's address must be 1 to 100 characters/],
      [{ promoter_address: ["Lab House", "Manchester"] }, /The promoter's address must end with a UK postcode/],
      [{ instant_win_max_live_percent: 51 }, /The instant-win share must be a whole percent from 0 to 50/],
      [{ instant_win_max_live_percent: 12.5 }, /The instant-win share must be a whole percent from 0 to 50/],
      [{ instant_win_max_live_percent: "30" }, /The instant-win share must be a whole percent/],
      [{ site_url: "http://labcash.example" }, /The site URL must be the site's address alone/],
      [{ site_url: "https://labcash.example/path" }, /The site URL must be the site's address alone/],
      [{ site_url: 12 }, /The site URL must be the site's address alone/],
      [{ limit_increase_delay_hours: 12 }, /whole number of hours from 24 to 168/],
      [{ limit_increase_delay_hours: 24.5 }, /whole number of hours from 24 to 168/],
      [{ limit_increase_delay_hours: "48" }, /must be a whole number of hours/],
    ];
    for (const [p, message] of cases) {
      // A good value beside the bad one is not saved either.
      const res = await db().rpc(asUser(boss), "admin_update_settings", {
        p: Object.keys(p).length ? { stamp_price: 1.23, ...p } : p,
      });
      expect(res.error, JSON.stringify(p)).toMatchObject({ code: "22023", hint: "invalid_input" });
      expect(res.error?.message, JSON.stringify(p)).toMatch(message);
    }
    expect((await db().rpc(asUser(boss), "admin_update_settings", { p: null })).error?.hint).toBe("invalid_input");
    expect((await db().rpc(asUser(boss), "admin_update_settings", { p: [1] })).error?.hint).toBe("invalid_input");
    expect(number(await stored("stamp_price"))).toBe(stampBefore);
    expect(await settingsLogCount()).toBe(logsBefore);
  });
});

describe("admin_get_complaint", () => {
  it("shows one complaint with the complainant and who handled it; unknown ids and players are refused", async () => {
    const admin = await db().createAdmin();
    const player = await db().createPlayer({ name: "Carla Complainer" });
    const complaint = await db().call<{ id: string; reference: string }>(asUser(player), "submit_complaint", {
      p_subject: "Missing tickets",
      p_reference: "LC-TEST",
      p_details: "My tickets did not appear in My entries after I paid.",
    });
    const got = await db().call<Record<string, unknown>>(asUser(admin), "admin_get_complaint", { p_id: complaint.id });
    expect(got).toMatchObject({
      id: complaint.id,
      reference: complaint.reference,
      status: "received",
      name: "Carla Complainer",
      related_reference: "LC-TEST",
      overdue: false,
      handled_by_name: null,
    });
    await db().call(asUser(admin), "admin_update_complaint", {
      p_id: complaint.id,
      p_status: "resolved",
      p_response: "We found your tickets and have put them back. Sorry for the trouble.",
    });
    const answered = await db().call<Record<string, unknown>>(asUser(admin), "admin_get_complaint", {
      p_id: complaint.id,
    });
    expect(answered).toMatchObject({ status: "resolved", handled_by_name: "Ada Admin" });

    const unknown = await db().rpc(asUser(admin), "admin_get_complaint", {
      p_id: "00000000-0000-4000-8000-000000000000",
    });
    expect(unknown.error).toMatchObject({ code: "PT404", hint: "complaint_not_found" });
    expect((await db().rpc(asUser(player), "admin_get_complaint", { p_id: complaint.id })).error).toMatchObject(
      ADMIN_REQUIRED,
    );
    expect((await db().rpc(anon, "admin_get_complaint", { p_id: complaint.id })).error?.code).toBe("42501");
  });
});

describe("the promoter (CAP code 8.17)", () => {
  it("is an admin's to change, trimmed, audited, and shown to every visitor", async () => {
    const admin = await db().createAdmin();
    const got = await db().call<Settings>(asUser(admin), "admin_update_settings", {
      p: { promoter_name: "  Lab Prizes Ltd ", promoter_address: [" 1 High Street ", "Leeds", "ls1 4ap"] },
    });
    expect(got.changed).toEqual(["promoter_address", "promoter_name"]);
    expect(got.settings).toMatchObject({
      promoter_name: "Lab Prizes Ltd",
      promoter_address: ["1 High Street", "Leeds", "ls1 4ap"],
    });
    expect((await db().call<Record<string, unknown>>(anon, "get_site_settings")).promoter).toEqual({
      name: "Lab Prizes Ltd",
      address: ["1 High Street", "Leeds", "ls1 4ap"],
    });
    const [log] = await settingsLog("promoter_name");
    expect(log.details.promoter_name).toEqual({ old: "LabCash Trading Ltd", new: "Lab Prizes Ltd" });

    const player = await db().createPlayer();
    expect(
      (await db().rpc(asUser(player), "admin_update_settings", { p: { promoter_name: "Mine" } })).error,
    ).toMatchObject(ADMIN_REQUIRED);
    expect(await stored("promoter_name")).toBe("Lab Prizes Ltd");
  });
});
