import { expectAccessibleInBothSchemes } from "./support/axe";
import { expect, test } from "./support/fixtures";
import { buyAs, createUser } from "./support/backend";
import { CompetitionPage } from "./support/pages/competition";

test.use({
  competitionFields: { label: "pick", ticketPrice: 1, totalTickets: 150, maxPerUser: 5, ticketNumbering: "pick" },
  playerDetails: { name: "Pia Picker", credit: 10 },
});

// Pick your numbers: the grid marks a number another player bought, a player picks one
// by pointer and one found with the search box and chosen by keyboard on the next page, buys both, sees
// them as theirs and taken; then a lucky dip fills the basket with a free number and buys it.
test("a player picks two numbers from the grid and buys them, then buys a lucky dip", async ({
  approvedPlayer: { page },
  liveCompetition: competition,
}) => {
  const other = await createUser({ name: "Olive Other", credit: 10, label: "other" });
  await buyAs(other, competition.id, 1, "Yellow", [3]);

  const competitionPage = new CompetitionPage(page);
  await competitionPage.goto(competition);
  const online = competitionPage.entry;
  const firstPage = online.root.getByRole("group", { name: "Numbers 1 to 100" });
  await expect(firstPage.getByRole("button", { name: "3, taken" })).toBeDisabled();
  const seven = firstPage.getByRole("button", { name: "7", exact: true });
  await seven.click();
  await expect(seven).toHaveAttribute("aria-pressed", "true");

  await online.root.getByRole("spinbutton", { name: "Find a number" }).fill("142");
  await online.root.getByRole("button", { name: "Go", exact: true }).click();
  const secondPage = online.root.getByRole("group", { name: "Numbers 101 to 150" });
  const found = secondPage.getByRole("button", { name: "142", exact: true });
  await expect(found).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(found).toHaveAttribute("aria-pressed", "true");
  await expect(online.root.getByText(/^Your numbers: #7, #142, held for you until/)).toBeVisible();
  await expectAccessibleInBothSchemes(page, "the number grid with a basket");

  await online.answer("Yellow");
  await online.buyButton(2).click();
  await expect(online.result).toContainText("Your ticket numbers: #7, #142");
  await expect(competitionPage.yourTicketNumbers).toHaveText(["#7", "#142"]);
  await expect(secondPage.getByRole("button", { name: "142, taken" })).toBeDisabled();

  await online.root.getByRole("button", { name: "Lucky dip" }).click();
  const basket = online.root.getByText(/^Your numbers: #\d+, held for you until/);
  await expect(basket).toBeVisible();
  const dipped = Number((await basket.textContent())!.match(/#(\d+)/)![1]);
  expect([3, 7, 142]).not.toContain(dipped);
  await online.answer("Yellow");
  await online.buyButton(1).click();
  await expect(online.result).toContainText(`Your ticket number: #${dipped}`);
  await expect(competitionPage.yourTicketNumbers).toHaveCount(3);
  await expectAccessibleInBothSchemes(page, "after a lucky dip");
});
