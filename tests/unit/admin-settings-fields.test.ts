import { describe, expect, it } from "vitest";
import { settingsFormSchema } from "@/lib/settings/settings-fields";
import { formInput } from "@/lib/actions/action";

// The settings form's zod schema: what the browser posts becomes {setting: value} for admin_update_settings,
// only for the settings whose fields were edited, with one message per bad field.

const GOOD = {
  approvalMode: "manual",
  stampPrice: "0.87",
  postalWindow: "2",
  postalAddress: "LabCash Free Entry\nPO Box 4021\nManchester\nM60 1LC",
  launchAt: "2026-07-01T20:00",
  complaintsContact: "complaints@labcash.example",
  disputeName: "CEDR",
  disputeUrl: "https://www.cedr.com/consumer/",
  spinnerEnabled: "on",
  skillCooldown: "10",
  instantWinShare: "40",
  promoterName: "LabCash Trading Ltd",
  promoterAddress: "Unit 4, Lab House\n12 Market Street\nManchester\nM1 1PW",
  siteUrl: "https://LabCash.example/",
  limitIncreaseDelay: "48",
};
const MONEY = {
  money: "1",
  topUpMin: "5",
  topUpMax: "5000.00",
  bonusEnabled: "on",
  cardCap: "250",
  largeAdjustment: "100",
  referralCredit: "2.50",
  referralCap: "10",
};

/** What the browser posts: the fields, and the tier rows under two repeated names. */
function posted(fields: Record<string, string>, tiers: [string, string][] = []) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const [from, percent] of tiers) {
    form.append("tierFrom", from);
    form.append("tierPercent", percent);
  }
  return formInput(form);
}

const messages = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]));

describe("settingsFormSchema", () => {
  it("sends only the edited settings, as SQL takes them (numbers, lines, UTC, on/off)", () => {
    const all =
      "approval_mode,stamp_price,postal_window_working_days,postal_address,launch_at,complaints_contact,dispute_resolution_body,spinner_enabled,skill_answer_cooldown_minutes,instant_win_max_live_percent,promoter_name,promoter_address,site_url,limit_increase_delay_hours";
    expect(settingsFormSchema.parse(posted({ ...GOOD, edited: all }))).toEqual({
      approval_mode: "manual",
      stamp_price: 0.87,
      postal_window_working_days: 2,
      postal_address: ["LabCash Free Entry", "PO Box 4021", "Manchester", "M60 1LC"],
      launch_at: "2026-07-01T19:00:00.000Z",
      complaints_contact: "complaints@labcash.example",
      dispute_resolution_body: { name: "CEDR", url: "https://www.cedr.com/consumer/" },
      spinner_enabled: true,
      skill_answer_cooldown_minutes: 10,
      instant_win_max_live_percent: 40,
      promoter_name: "LabCash Trading Ltd",
      promoter_address: ["Unit 4, Lab House", "12 Market Street", "Manchester", "M1 1PW"],
      site_url: "https://labcash.example",
      limit_increase_delay_hours: 48,
    });
    expect(settingsFormSchema.parse(posted({ ...GOOD, edited: "stamp_price" }))).toEqual({ stamp_price: 0.87 });
    // The sign-up digest is a box like the LabSpinner switch: ticked is on, left out is off.
    expect(settingsFormSchema.parse(posted({ ...GOOD, signUpDigest: "on", edited: "sign_up_digest" }))).toEqual({
      sign_up_digest: true,
    });
    expect(settingsFormSchema.parse(posted({ ...GOOD, edited: "sign_up_digest" }))).toEqual({ sign_up_digest: false });
    expect(
      settingsFormSchema.parse(posted({ ...GOOD, skillCooldown: "0", edited: "skill_answer_cooldown_minutes" })),
    ).toEqual({ skill_answer_cooldown_minutes: 0 });
    expect(settingsFormSchema.parse(posted({ ...GOOD, edited: "" }))).toEqual({});
    // An unticked box is not posted: off. An empty launch date: no countdown.
    const off: Record<string, string> = { ...GOOD };
    delete off.spinnerEnabled;
    expect(settingsFormSchema.parse(posted({ ...off, launchAt: "", edited: "spinner_enabled,launch_at" }))).toEqual({
      spinner_enabled: false,
      launch_at: null,
    });
  });

  it("sends the money settings only when the form showed them, tiers from the filled rows", () => {
    const edited = "top_up_min,bonus_tiers,bonus_enabled,stamp_price";
    expect(settingsFormSchema.parse(posted({ ...GOOD, topUpMin: "7", edited }))).toEqual({ stamp_price: 0.87 });
    expect(
      settingsFormSchema.parse(
        posted({ ...GOOD, ...MONEY, edited }, [
          ["50", "2.5"],
          ["", ""],
          ["200.00", "5"],
        ]),
      ),
    ).toEqual({
      stamp_price: 0.87,
      top_up_min: 5,
      bonus_enabled: true,
      bonus_tiers: [
        { from: 50, percent: 2.5 },
        { from: 200, percent: 5 },
      ],
    });
  });

  it("gives one message per bad field, tier rows by number", () => {
    const result = settingsFormSchema.safeParse(
      posted(
        {
          ...GOOD,
          ...MONEY,
          approvalMode: "sometimes",
          stampPrice: "87p",
          postalWindow: "21",
          skillCooldown: "1441",
          instantWinShare: "51",
          postalAddress: "LabCash",
          launchAt: "soon",
          complaintsContact: "nobody",
          disputeName: "",
          disputeUrl: "http://cedr.example",
          siteUrl: "http://labcash.example/shop",
          limitIncreaseDelay: "12",
          topUpMin: "6000",
          topUpMax: "5000",
          edited: "stamp_price",
        },
        [
          ["50", ""],
          ["50", "3"],
          ["", "2"],
        ],
      ),
    );
    expect(result.success).toBe(false);
    expect(messages(result)).toEqual({
      approvalMode: "Choose manual or automatic approval",
      stampPrice: "Enter the stamp price in pounds and pence, such as 0.87",
      postalWindow: "Enter a whole number of working days from 1 to 20",
      skillCooldown: "Enter a whole number of minutes from 0 to 1440 (0: no wait)",
      instantWinShare:
        "Enter a whole percent from 0 to 50 (instant-win competitions are never the majority of live ones)",
      postalAddress: "Give the postal address on 2 to 8 lines",
      launchAt: "Enter a date and time, or leave it empty for no countdown",
      complaintsContact: "Enter an e-mail address of at most 254 characters, such as complaints@labcash.example",
      disputeName: "Enter the dispute-resolution body's name (2 to 200 characters)",
      disputeUrl: "Enter a web address starting with https:// (at most 500 characters)",
      siteUrl: "Enter the site's address alone, such as https://labcash.example",
      limitIncreaseDelay: "Enter a whole number of hours from 24 to 168",
      topUpMin: "The top-up minimum must not be more than the maximum",
      tierPercent1: "Tier 1: enter a bonus percent above 0 and at most 100, such as 2.5",
      tierFrom2: "Tier 2: another tier starts at £50",
      tierFrom3: "Tier 3: enter the top-up amount it starts at, from £1, such as 50",
    });
  });

  it("checks the promoter's name and address (CAP code 8.17), one message each", () => {
    const result = settingsFormSchema.safeParse(
      posted({ ...GOOD, promoterName: " X ", promoterAddress: "Lab House\nManchester", edited: "promoter_name" }),
    );
    expect(messages(result)).toEqual({
      promoterName: "Enter the promoter's name (2 to 200 characters)",
      promoterAddress: "End the promoter's address with a UK postcode",
    });
  });
});
