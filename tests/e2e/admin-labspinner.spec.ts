import { expectAccessibleInBothSchemes } from "./support/axe";
import { createUser, saveSpinnerWheel, spinCreditsOf, spinnerWheel, updateSettings } from "./support/backend";
import { expect, test } from "./support/fixtures";
import { ActivityPage } from "./support/pages/admin";
import { AdminLabSpinnerPage, UserSpinsRecord } from "./support/pages/admin-labspinner";
import { LabSpinnerPage } from "./support/pages/labspinner";

// The LabSpinner admin screen (the wheel and its postal route). The wheel and its switch are shared by every
// spec and every worker, so these tests run one after another, keep the wheel off only for as long as they look
// at it, and put the wheel they found back at the end (a new version with the same segments).
test.describe.configure({ mode: "serial" });

/** The odds as both pages write a probability: "65%", "0.5%". */
const odds = (probability: number) =>
  new Intl.NumberFormat("en-GB", { style: "percent", maximumFractionDigits: 4 }).format(probability);

let original: Awaited<ReturnType<typeof spinnerWheel>>;

test.beforeAll(async () => {
  original = await spinnerWheel();
});

test.afterAll(async () => {
  const now = await spinnerWheel();
  const segments = (wheel: typeof now) =>
    JSON.stringify(
      wheel.segments.map(({ label, colour, label_colour, prize_credits, weight }) => [
        label,
        colour,
        label_colour,
        prize_credits,
        weight,
      ]),
    );
  if (segments(now) !== segments(original)) await saveSpinnerWheel(original.segments);
  if (!now.enabled) await updateSettings({ spinner_enabled: true });
});

test("an admin changes a weight and a label; the new odds show here and on /labspinner, and the change is audited", async ({
  admin,
  page,
}) => {
  const second = original.segments[1];
  const weight = second.weight + 100;
  const label = `${second.label.slice(0, 16)} (new)`;
  const total = original.total_weight + 100;

  const spinner = new AdminLabSpinnerPage(admin);
  await spinner.goto();
  await expect(spinner.field(2, "Label")).toHaveValue(second.label);
  await spinner.field(2, "Label").fill(label);
  await spinner.field(2, "Weight").fill(String(weight));
  // The preview follows the form as it is typed.
  await expect(spinner.segment(2)).toContainText(`Odds ${odds(weight / total)}`);
  await spinner.save.click();
  await expect(spinner.editorStatus).toContainText("Saved as wheel version");
  await expect(spinner.editorStatus).toContainText("applies to spins after this change only");

  // The figures now shown are the database's.
  const saved = await spinnerWheel();
  expect(saved.wheel_id).toBeGreaterThan(original.wheel_id);
  expect(saved.total_weight).toBe(total);
  expect(saved.segments[1]).toMatchObject({ label, weight, probability: Number((weight / total).toFixed(6)) });
  await expect(spinner.liveRow(label)).toContainText(odds(saved.segments[1].probability));
  await expect(spinner.liveRow(original.segments[0].label)).toContainText(odds(saved.segments[0].probability));
  await expect(spinner.versions.getByRole("row").nth(1)).toContainText(String(saved.wheel_id));
  await expect(spinner.versions.getByRole("row").nth(1)).toContainText("Live");

  // The public page publishes the same odds.
  const publicPage = new LabSpinnerPage(page);
  await publicPage.goto();
  await expect(publicPage.oddsRow(label)).toContainText(odds(saved.segments[1].probability));
  await expect(publicPage.oddsRow(original.segments[0].label)).toContainText(odds(saved.segments[0].probability));

  const activity = new ActivityPage(admin);
  await activity.goto("?kind=spinner.wheel_updated");
  await expect(activity.rows().first()).toContainText("Spinner wheel updated");
});

test("bad segments are refused on their fields, the label contrast by the database, and nothing is saved", async ({
  admin,
}) => {
  const before = await spinnerWheel();
  const spinner = new AdminLabSpinnerPage(admin);
  await spinner.goto();
  await spinner.field(1, "Label colour").selectOption({ label: "White (#ffffff)" });
  await spinner.field(1, "Colour").fill("#ffff00");
  await expect(spinner.segment(1)).toContainText("below 4.5:1: saving will be refused");
  await spinner.field(3, "Weight").fill("0");
  await spinner.field(4, "Prize (credits)").fill("2.505");
  await spinner.save.click();
  // The form's own checks first: each message on its field.
  await expect(spinner.field(3, "Weight")).toHaveAccessibleDescription(
    /Segment 3: give the weight as a whole number from 1 to 1,000,000/,
  );
  await expect(spinner.field(4, "Prize (credits)")).toHaveAccessibleDescription(
    /Segment 4: give the prize in credits from 0 to 1,000, to 2 decimal places at most/,
  );
  await expect(spinner.field(2, "Weight")).not.toHaveAttribute("aria-invalid");

  // Then the contrast, which only the database decides (4.5:1), on the colour it refused.
  await spinner.field(3, "Weight").fill("5");
  await spinner.field(4, "Prize (credits)").fill("2.50");
  await spinner.save.click();
  await expect(spinner.field(1, "Colour")).toHaveAccessibleDescription(/Segment 1: the label has a contrast of only/);
  await expect(spinner.field(1, "Colour")).toHaveAccessibleDescription(/it needs 4\.5:1/);
  await expect(spinner.field(1, "Colour")).toHaveValue("#ffff00");
  expect((await spinnerWheel()).wheel_id).toBe(before.wheel_id);

  // Black on yellow passes.
  await spinner.field(1, "Label colour").selectOption({ label: "Black (#111111)" });
  await expect(spinner.segment(1)).not.toContainText("saving will be refused");
});

test("an admin switches the wheel off and /labspinner says so; switched back on, it does not", async ({
  admin,
  page,
}) => {
  const spinner = new AdminLabSpinnerPage(admin);
  const publicPage = new LabSpinnerPage(page);
  await spinner.goto();
  try {
    await spinner.switchWheel("off");
    await expect(spinner.onOff.getByRole("status")).toContainText("LabSpinner is off");
    await expect(spinner.onOff.getByRole("button", { name: "Switch the wheel on" })).toBeVisible();
    expect((await spinnerWheel()).enabled).toBe(false);
    await publicPage.goto();
    await expect(publicPage.switchedOff).toBeVisible();
  } finally {
    await spinner.switchWheel("on");
  }
  await expect(spinner.onOff.getByRole("status")).toContainText("LabSpinner is on");
  expect((await spinnerWheel()).enabled).toBe(true);
  await publicPage.goto();
  await expect(publicPage.oddsTable).toBeVisible();
  await expect(publicPage.switchedOff).toHaveCount(0);
});

test("an admin records a postal request for a player, whose spin credits go up by one", async ({ admin }) => {
  const player = await createUser({ name: "Polly Postal", label: "spinpost" });
  expect((await spinCreditsOf(player.id)).available).toBe(0);
  const spinner = new AdminLabSpinnerPage(admin);
  await spinner.goto();

  await spinner.recordPostalRequest("nobody-here@labcash.test", "Letter 1");
  await expect(spinner.postalRequest.getByLabel("Player's account e-mail")).toHaveAccessibleDescription(
    /No account has this e-mail address/,
  );

  const reference = `Letter ${player.id.slice(0, 8)}`;
  await spinner.recordPostalRequest(player.email, reference);
  await expect(spinner.postalRequest.getByRole("status")).toContainText(
    `Recorded Polly Postal's postal request (${reference}): 1 spin credit added, 1 to use now.`,
  );
  await expect(spinner.postalRequests.getByRole("row").filter({ hasText: reference })).toContainText(player.email);
  expect(await spinCreditsOf(player.id)).toMatchObject({ available: 1, granted: 1 });

  const record = new UserSpinsRecord(admin);
  await record.goto(player.id);
  await expect(record.figure("Spin credits to use")).toHaveText("1");
  await expect(record.figure("From postal requests")).toHaveText("1");
  await expect(record.grants).toContainText(reference);

  await new ActivityPage(admin).goto(`?kind=spinner.postal_request&subject=${encodeURIComponent(player.email)}`);
  await expect(new ActivityPage(admin).rows().first()).toContainText("Spinner postal request");
});

test("the LabSpinner admin screen and a player's spins have no axe violations in light and dark mode", async ({
  admin,
  approvedAccount,
}) => {
  await admin.emulateMedia({ colorScheme: "light", reducedMotion: "reduce" });
  const spinner = new AdminLabSpinnerPage(admin);
  await spinner.goto();
  // With messages showing on a field and on the postal form.
  await spinner.field(2, "Weight").fill("");
  await spinner.save.click();
  await expect(spinner.field(2, "Weight")).toHaveAttribute("aria-invalid", "true");
  await spinner.recordPostalRequest("", "");
  await expect(spinner.postalRequest.getByLabel("Reference")).toHaveAttribute("aria-invalid", "true");
  await expectAccessibleInBothSchemes(admin, "the LabSpinner admin screen with messages");

  const record = new UserSpinsRecord(admin);
  await record.goto(approvedAccount.id);
  await expect(record.section).toBeVisible();
  await expectAccessibleInBothSchemes(admin, "a player's spins");
});
