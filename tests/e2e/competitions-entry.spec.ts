import { expect, test } from "./support/fixtures";
import { buyAs, createUser, publicCompetition } from "./support/backend";
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

// The whole life of a competition through the pages: a player enters, sells it out with the
// last tickets, the draw appears on the page and on /winners, and the browser verifies it.
test("an approved player enters, buys the last tickets, wins or loses fairly and the draw checks out", async ({
  approvedPlayer: { page },
  liveCompetition: competition,
}) => {
  test.setTimeout(90_000);
  const other = await createUser({ name: "Olive Other", credit: 10, label: "other" });
  await buyAs(other, competition.id, 2);

  const competitionPage = new CompetitionPage(page);
  await competitionPage.goto(competition);
  await expect(competitionPage.heading(competition)).toBeVisible();
  const sold = competitionPage.ticketsSold;
  await expect(sold).toHaveAttribute("aria-valuenow", "2");
  await expect(sold).toHaveAttribute("aria-valuemax", "8");
  await expect(page.getByText("1 in 8 per ticket at sell-out")).toBeVisible();
  await expect(competitionPage.seedCommitment).toHaveText(competition.seed_commitment);
  await expect(page.getByText("or as soon as the last ticket sells")).toBeVisible();
  await page.getByRole("button", { name: "Show image 2 of 2" }).click();
  await expect(page.getByRole("img", { name: `${competition.title}, image 2 of 2` })).toBeVisible();

  // The free route sits beside the paid one, with the same weight, and links to its rules.
  const post = competitionPage.postalEntry;
  await expect(post).toContainText("exactly the same odds");
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

  // The last ticket: the purchase that sells out draws the competition in the same transaction.
  await expect(online.root.getByText("You hold 5 tickets, so you can buy up to 1 more ticket")).toBeVisible();
  await online.buy(1);
  await expect(online.result).toContainText("Your ticket number: #8");
  await expect(online.result).toContainText("the draw has just taken place");
  await expect(online.root.getByText("This competition has sold out")).toBeVisible();

  const drawn = await publicCompetition(competition.slug);
  expect(drawn.status).toBe("drawn");
  const draw = drawn.draw!;
  expect(["Wendy W.", "Olive O."]).toContain(draw.winner_display_name);
  const won = draw.winning_number >= 3;
  await expect(competitionPage.winnerName).toHaveText(draw.winner_display_name);
  await expect(competitionPage.winningTicket).toContainText(`#${draw.winning_number}`);
  await expect(page.getByRole("heading", { name: won ? "You won!" : "The winner" })).toBeVisible();

  // My entries: the competition with the tickets and the result.
  const myEntries = new MyEntriesPage(page);
  await myEntries.goto();
  const entry = myEntries.entry(competition);
  await expect(entry).toContainText("#3–#8");
  await expect(entry).toContainText(won ? "Result: Won" : "Result: Not won");

  // Winners: prize, first name and initial, ticket, and the way to verify.
  await page.goto("/winners");
  const winner = page.getByRole("article", { name: competition.title });
  await expect(winner).toContainText(draw.winner_display_name);
  await expect(winner).toContainText(`#${draw.winning_number} of 8`);
  await winner.getByRole("link", { name: `Verify the draw for ${competition.title}` }).click();

  await expect(page).toHaveURL(new RegExp(`/winners/${draw.id}$`));
  await expect(page.getByText("This draw checks out")).toBeVisible();
  await expect(page.getByText("They match.")).toBeVisible();
  await expect(page.getByRole("list", { name: "Checks" }).getByRole("listitem")).toHaveCount(7);
  await page.getByText("The ticket list (8 tickets)").click();
  await expect(page.getByRole("region", { name: "Ticket list" })).toContainText(
    /^1:[0-9a-f-]{36}\n[\s\S]*\n8:[0-9a-f-]{36}\n?$/,
  );
});
