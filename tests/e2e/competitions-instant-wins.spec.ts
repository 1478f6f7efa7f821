import { expectAccessibleInBothSchemes } from "./support/axe";
import { drawNow } from "./support/backend";
import { gotoUntilVisible } from "./support/cached-pages";
import { expect, test } from "./support/fixtures";
import { CompetitionPage } from "./support/pages/competition";

// Instant wins: a tiny competition where every ticket wins, so the player's purchase is
// sure to hit a winning number without anyone reading the secret numbers. The win shows at once in the
// entry result's live region, the page lists it, and after the draw the browser checks the commitment
// and every award from the revealed seed. A pick-your-numbers competition, so the win follows a purchase of
// chosen numbers (the result and confetti are the same component as an in-order purchase's).
test.use({
  competitionFields: {
    label: "instantwin",
    totalTickets: 2,
    maxPerUser: 2,
    question: null,
    ticketNumbering: "pick",
    instantWins: [
      { kind: "credit", credit_amount: 5, quantity: 1 },
      { kind: "physical", title: "A test hamper", quantity: 1 },
    ],
  },
  playerDetails: { name: "Ivy Instant", credit: 10 },
});

test("a player picks winning numbers, sees the wins at once and on the page, and they verify after the draw", async ({
  approvedPlayer: { page },
  liveCompetition: competition,
}) => {
  const competitionPage = new CompetitionPage(page);
  await competitionPage.goto(competition);
  await expect(competitionPage.instantWins).toContainText("No instant wins yet.");

  const online = competitionPage.entry;
  const grid = online.root.getByRole("group", { name: "Numbers 1 to 2" });
  for (const n of ["1", "2"]) await grid.getByRole("button", { name: n, exact: true }).click();
  await expect(online.root.getByText(/^Your numbers: #1, #2, held for you until/)).toBeVisible();
  await online.buyButton(2).click();
  await expect(online.result).toContainText("Instant wins!");
  await expect(online.result).toContainText("won £5.00 credit (added to your credit)");
  await expect(online.result).toContainText("won A test hamper (we will be in touch about delivery)");
  // £10 − £2 for the tickets + £5 won.
  await expect(online.result).toContainText("Credit left: £13.00");

  const wins = competitionPage.instantWins.getByRole("table", { name: "Instant wins so far" }).getByRole("row");
  await gotoUntilVisible(page, competition.path, wins.filter({ hasText: "Ivy I." }).nth(1));
  await expect(competitionPage.instantWins).toContainText(/[0-9a-f]{64}/);
  await expectAccessibleInBothSchemes(page, "instant wins won");

  await drawNow(competition);
  const verified = competitionPage.instantWins.getByRole("status");
  await gotoUntilVisible(page, competition.path, verified.filter({ hasText: "Instant wins verified" }));
  await expect(verified).toContainText("Matches: Ticket #1");
  await expect(verified).toContainText("Matches: Ticket #2");
  await expect(verified).not.toContainText("Does not match");
  await expectAccessibleInBothSchemes(page, "instant wins verified");
});
