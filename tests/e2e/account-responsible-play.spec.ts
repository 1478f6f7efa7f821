import { expectAccessibleInBothSchemes } from "./support/axe";
import { signedInClient } from "./support/backend";
import { expect, test } from "./support/fixtures";
import { ResponsiblePlayPage } from "./support/pages/account";
import { CompetitionPage } from "./support/pages/competition";
import { Header } from "./support/pages/header";

// /account/responsible-play: the monthly limit (decrease now, increase later), a break, self-exclusion and
// closure behind their confirmations, the state in the page and the header, and the refusals that follow.

test("a lower limit applies at once, a higher one or none waits 24 hours", async ({ approvedPlayer: { page } }) => {
  const play = new ResponsiblePlayPage(page);
  await play.goto();
  await expect(play.value("Monthly limit")).toHaveText("No limit");

  await play.setLimit("abc");
  await expect(play.limitAmount).toHaveAttribute("aria-invalid", "true");
  await expect(play.limitAmount).toHaveAccessibleDescription(/Enter a limit in pounds, like 100 or 25.50/);

  await play.setLimit("100");
  await expect(play.formStatus).toHaveText("Your monthly limit is now £100.00.");
  await expect(play.value("Monthly limit")).toHaveText("£100.00");
  await play.setLimit("0");
  await expect(play.value("Monthly limit")).toHaveText("£0.00");
  await expect(play.value("Left to top up this month")).toHaveText("£0.00");
  await expect(play.value("Left to spend on entries this month")).toHaveText("£0.00");

  await play.setLimit("80");
  await expect(play.formStatus).toContainText("Your new limit of £80.00 applies from");
  await expect(play.value("Monthly limit")).toHaveText("£0.00");
  await expect(play.value("Waiting to apply")).toContainText("£80.00 from");

  await play.noLimitChoice.check();
  await play.saveLimit.click();
  await expect(play.formStatus).toContainText("Your removal of the limit applies from");
  await expect(play.value("Waiting to apply")).toContainText("No limit from");
  await expect(play.value("Monthly limit")).toHaveText("£0.00");
});

test("a break is confirmed, shown in the page and the header, and refuses top-ups and entries", async ({
  approvedPlayer: player,
  liveCompetition: competition,
}) => {
  const { page } = player;
  const play = new ResponsiblePlayPage(page);
  await play.goto();

  // Cancelling changes nothing.
  await play.takeBreak.click();
  await expect(play.dialog).toContainText("This cannot be undone early.");
  await play.dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(play.dialog).toHaveCount(0);
  await expect(play.state).toHaveCount(0);

  await play.takeBreak.click();
  await play.dialog.getByLabel("How long").selectOption("1 month");
  await play.dialog.getByRole("button", { name: "Start my break" }).click();
  await expect(play.dialog).toHaveCount(0);
  await expect(play.state).toContainText(/On a break until \d{1,2} \w+ \d{4}/);
  await expect(play.state).toContainText("Your break ends on");
  await expect(play.takeBreak).toHaveCount(0);
  const header = new Header(page);
  await expect(header.banner.getByRole("link", { name: /^On a break until/ })).toBeVisible();

  // Top-ups are refused by the database, with the code the screens switch on.
  const client = await signedInClient(player.email, player.password);
  const { data: quote } = await client.rpc("quote_top_up", { p_amount: 10 });
  expect(quote.refusal?.code).toBe("on_break");

  const competitionPage = new CompetitionPage(page);
  await competitionPage.goto(competition);
  const online = competitionPage.entry;
  await expect(header.banner.getByRole("link", { name: /^On a break until/ })).toBeVisible();
  // The entry panel is a personal island: wait until it shows the player's own state (the buy form,
  // or the refusal itself) before deciding whether there is anything to press.
  const refusal = online.root.getByText(quote.refusal.message);
  await expect(online.buyButtons.first().or(refusal)).toBeVisible();
  if (await online.buyButtons.first().isVisible()) await online.buy(1);
  await expect(online.root).toContainText(quote.refusal.message);
  await expect(competitionPage.ticketsSold).toHaveAttribute("aria-valuenow", "0");

  // On a phone, the menu shows the state too.
  await page.setViewportSize({ width: 390, height: 800 });
  const menu = await header.openMobileMenu();
  await expect(menu.getByRole("link", { name: /^On a break until/ })).toBeVisible();
});

test("self-exclusion and then closure are each confirmed and shown", async ({ approvedPlayer: { page } }) => {
  const play = new ResponsiblePlayPage(page);
  await play.goto();
  await play.excludeMyself.click();
  await expect(play.dialog).toContainText("This cannot be undone early.");
  await play.dialog.getByLabel("How long").selectOption({ label: "1 year" });
  await play.dialog.getByRole("button", { name: "Exclude me" }).click();
  await expect(play.state).toContainText(/Self-excluded until \d{1,2} \w+ \d{4}/);
  await expect(new Header(page).banner.getByRole("link", { name: /^Self-excluded until/ })).toBeVisible();
  await expect(play.takeBreak).toHaveCount(0);
  await expect(play.excludeMyself).toHaveCount(0);

  await play.closeAccount.click();
  await play.dialog.getByRole("button", { name: "Close my account" }).click();
  await expect(play.state).toContainText("Account closed");
  await expect(play.state).toContainText("A closed account cannot be opened again.");
  await expect(play.closeAccount).toHaveCount(0);
  await expect(play.saveLimit).toHaveCount(0);
  await expect(new Header(page).banner.getByRole("link", { name: "Account closed" })).toBeVisible();
});

test("help is signposted", async ({ approvedPlayer: { page } }) => {
  const play = new ResponsiblePlayPage(page);
  await play.goto();
  const help = page.getByRole("region", { name: "Where to get help" });
  for (const [name, href] of [
    ["GamCare", "https://www.gamcare.org.uk"],
    ["BeGambleAware", "https://www.begambleaware.org"],
    ["Citizens Advice", "https://www.citizensadvice.org.uk/debt-and-money/"],
    ["Samaritans", "https://www.samaritans.org"],
    ["Mind", "https://www.mind.org.uk"],
  ]) {
    await expect(help.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
  }
  await expect(
    page.getByRole("navigation", { name: "My account" }).getByRole("link", { name: "Responsible play" }),
  ).toHaveAttribute("aria-current", "page");
});

test("the responsible-play page has no axe violations in light and dark mode, open dialog included", async ({
  approvedPlayer: { page },
}) => {
  await page.emulateMedia({ colorScheme: "light", reducedMotion: "reduce" });
  const play = new ResponsiblePlayPage(page);
  await play.goto();
  await expectAccessibleInBothSchemes(page, "responsible play");
  await play.excludeMyself.click();
  await expect(play.dialog).toBeVisible();
  await expectAccessibleInBothSchemes(page, "the exclusion dialog");
});
