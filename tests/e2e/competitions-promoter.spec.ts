import { expectAccessibleInBothSchemes } from "./support/axe";
import { adminSettings, updateSettings } from "./support/backend";
import { expect, test } from "./support/fixtures";
import { AdminSettingsPage } from "./support/pages/admin";
import { CompetitionPage } from "./support/pages/competition";

// CAP code 8.17: every competition page states, before the entry form, who may enter
// (18 or over, UK only) and the promoter's name and address, a setting admins change on /admin/settings.
// The promoter is a shared setting: this file changes it once and puts it back.
test.describe.configure({ mode: "serial" });

const whoCanEnter = (page: import("@playwright/test").Page) =>
  page.getByRole("group", { name: "Who can enter and who runs this competition" });

test("a competition page names the promoter and the 18+ UK restriction before the entry form", async ({
  page,
  liveCompetition,
}) => {
  const competition = new CompetitionPage(page);
  await competition.goto(liveCompetition);
  const notice = whoCanEnter(page);
  await expect(notice).toContainText("Open to UK residents aged 18 or over only.");
  await expect(notice).toContainText(
    "Promoter: LabCash Trading Ltd, Unit 4, Lab House, 12 Market Street, Manchester, M1 1PW.",
  );
  // Before either way to enter, in reading order.
  const before = await notice.evaluate((el) => {
    const online = document.querySelector('[aria-labelledby="enter-online-title"]');
    return online !== null && Boolean(el.compareDocumentPosition(online) & Node.DOCUMENT_POSITION_FOLLOWING);
  });
  expect(before).toBe(true);
});

for (const viewport of [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 900 },
]) {
  test(`the competition page with the notice has no axe violations in light and dark mode on a ${viewport.name}`, async ({
    page,
    liveCompetition,
  }) => {
    await page.setViewportSize(viewport);
    await new CompetitionPage(page).goto(liveCompetition);
    await expect(whoCanEnter(page)).toBeVisible();
    await expectAccessibleInBothSchemes(page);
  });
}

test("an admin changes the promoter on /admin/settings and competition pages follow", async ({
  admin,
  page,
  liveCompetition,
}) => {
  const before = await adminSettings();
  try {
    const settings = new AdminSettingsPage(admin);
    await settings.goto();
    await expect(settings.group("Promoter")).toBeVisible();
    await settings.field("Promoter's name").fill("L");
    await settings.field("Promoter's address").fill("Lab House\nManchester");
    await settings.save.click();
    await expect(settings.field("Promoter's name")).toHaveAccessibleDescription(
      /Enter the promoter's name \(2 to 200 characters\)/,
    );
    await expect(settings.field("Promoter's address")).toHaveAccessibleDescription(
      /End the promoter's address with a UK postcode/,
    );

    await settings.field("Promoter's name").fill("Lab Prizes Ltd");
    await settings.field("Promoter's address").fill("1 High Street\nLeeds\nLS1 4AP");
    await settings.save.click();
    await expect(settings.status).toContainText("Saved: promoter's address, promoter's name.");

    await new CompetitionPage(page).goto(liveCompetition);
    await expect(whoCanEnter(page)).toContainText("Promoter: Lab Prizes Ltd, 1 High Street, Leeds, LS1 4AP.");
  } finally {
    await updateSettings({ promoter_name: before.promoter_name, promoter_address: before.promoter_address });
  }
});
