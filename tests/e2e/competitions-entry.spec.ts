import { gotoUntilVisible } from "./support/cached-pages";
import { expect, test } from "./support/fixtures";
import { buyAs, createUser, makeDue, publicCompetition, runDueDraws } from "./support/backend";
import { MyEntriesPage } from "./support/pages/account";
import { CompetitionPage } from "./support/pages/competition";

test.use({
  competitionFields: {
    label: "flow",
    ticketPrice: 0.5,
    totalTickets: 8,
    maxPerUser: 8,
    images: ["/competitions/steam-deck-oled.svg", "/competitions/dji-mini-5-pro.svg"],
  },
  playerDetails: { name: "Wendy Winner", credit: 20 },
});

// The whole life of a competition through the pages: a player enters, online sales close, the draw
// happens at its draw time (the cron's run_due_draws), the result is on the page and on /winners,
// and the browser verifies it. The close, postal deadline and draw time are moved to now rather than
// waited for.
test("an approved player enters, the competition is drawn at its draw time, and the draw checks out", async ({
  approvedPlayer: { page },
  liveCompetition: competition,
}) => {
  const other = await createUser({ name: "Olive Other", credit: 10, label: "other" });
  await buyAs(other, competition.id, 2);

  const competitionPage = new CompetitionPage(page);
  await competitionPage.goto(competition);
  await expect(competitionPage.heading(competition)).toBeVisible();
  const sold = competitionPage.ticketsSold;
  await expect(sold).toHaveAttribute("aria-valuenow", "2");
  await expect(sold).toHaveAttribute("aria-valuemax", "8");
  await expect(page.getByText("1 in 8 per ticket, plus free postal entries").first()).toBeVisible();
  await expect(competitionPage.seedCommitment).toHaveText(competition.seed_commitment);
  await expect(page.getByText(/^Closes in/).first()).toBeVisible();
  await page.getByRole("button", { name: "Show image 2 of 2" }).click();
  await expect(page.getByRole("img", { name: `${competition.title}, image 2 of 2` })).toBeVisible();

  // The free route sits beside the paid one, with the same weight, and links to its rules.
  const post = competitionPage.postalEntry;
  await expect(post).toContainText("exactly the same chance per ticket");
  await expect(post.getByRole("link", { name: "Free postal entry: the full rules" })).toHaveAttribute(
    "href",
    "/docs/competitions#free-entry-by-post",
  );

  const online = competitionPage.entry;
  await expect(competitionPage.yourTickets).toContainText("You have no tickets in this competition yet.");
  await online.pickQuick("5");
  await expect(online.total).toHaveText("£2.50");
  await online.answer("Yellow");
  await online.buyButton(5).click();

  await expect(online.result).toContainText("Your ticket numbers: #3–#7");
  await expect(online.result).toContainText("Credit left: £17.50");
  await expect(competitionPage.yourTicketNumbers).toHaveText(["#3", "#4", "#5", "#6", "#7"]);
  await expect(sold).toHaveAttribute("aria-valuenow", "7");

  // The draw time comes; the cron (called here as it calls it) draws over every ticket.
  await makeDue(competition.id, "draw");
  await runDueDraws();
  const drawn = await publicCompetition(competition.slug);
  expect(drawn.status).toBe("drawn");
  const draw = drawn.draw!;
  expect(["Wendy W.", "Olive O."]).toContain(draw.winner_display_name);
  const won = draw.winning_number >= 3;
  await page.reload();
  await expect(competitionPage.winnerName).toHaveText(draw.winner_display_name);
  await expect(competitionPage.winningTicket).toContainText(`#${draw.winning_number}`);
  await expect(page.getByRole("heading", { name: won ? "You won!" : "The winner" })).toBeVisible();
  await expect(online.root.getByText("This competition has closed")).toBeVisible();
  await expect(competitionPage.postalEntry).toContainText("Postal entries for this competition closed on");
  await expect(competitionPage.entryListLink).toHaveAttribute("href", `${competition.path}/entries`);

  // My entries: the competition with the tickets and the result.
  const myEntries = new MyEntriesPage(page);
  await myEntries.goto();
  const entry = myEntries.entry(competition);
  await expect(entry).toContainText("#3–#7");
  await expect(entry).toContainText(won ? "Result: Won" : "Result: Not won");

  // Winners: prize, first name and initial, ticket, and the way to verify.
  const winner = page.getByRole("article", { name: competition.title });
  await gotoUntilVisible(page, "/winners", winner);
  await expect(winner).toContainText(draw.winner_display_name);
  await expect(winner).toContainText(`#${draw.winning_number}`);
  await winner.getByRole("link", { name: `Verify the draw for ${competition.title}` }).click();

  await expect(page).toHaveURL(new RegExp(`/winners/${draw.id}$`));
  await expect(page.getByText("This draw checks out")).toBeVisible();
});
