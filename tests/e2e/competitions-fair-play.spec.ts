import { expectAccessibleInBothSchemes } from "./support/axe";
import { publicCompetition, recordPostalEntry, runDueDraws } from "./support/backend";
import { expect, test } from "./support/fixtures";
import { CompetitionPage } from "./support/pages/competition";

// The fair-play rules as a player meets them (code of practice 2.1–2.5, CAP 8.17 and 8.28.5):
// fixed dates, the odds before entry, the free postal route beside paid entry with stamp parity, the
// cash alternative, "How this draw works", and a sell-out that ends online sales without drawing.

const london = { timeZone: "Europe/London" } as const;
/** As the page writes a moment: "30 November 2026 at 18:00". */
const moment = (iso: string) =>
  new Intl.DateTimeFormat("en-GB", {
    ...london,
    day: "numeric",
    month: "long",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(new Date(iso));
/** As a card writes a moment: "30 Nov 2026, 18:00". */
const short = (iso: string) =>
  new Intl.DateTimeFormat("en-GB", { ...london, dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));

test.describe("£0.25 a ticket, 2,000 tickets, a £1,500 prize or £1,200 cash", () => {
  test.use({
    competitionFields: {
      label: "fair",
      ticketPrice: 0.25,
      totalTickets: 2000,
      maxPerUser: 10,
      prizeValue: 1500,
      cashAlternative: 1200,
    },
  });

  test("a visitor sees the four dates, the odds, the cash alternative, the postal card and how the draw works", async ({
    page,
    liveCompetition: competition,
  }) => {
    const posted = await recordPostalEntry(competition.id, {
      name: "Lettie Post",
      address: "1 High Street, Leeds LS1 1AA",
    });
    // Stamp parity, worked out in SQL: £0.87 at £0.25 a ticket is 4 tickets, numbered after the 2,000 online ones.
    expect(posted.ticket_numbers).toEqual([2001, 2002, 2003, 2004]);
    const dates = await publicCompetition(competition.slug);

    const competitionPage = new CompetitionPage(page);
    await competitionPage.goto(competition);
    await expect(competitionPage.date("Opens")).toHaveText(moment(dates.opens_at));
    await expect(competitionPage.date("Closes")).toHaveText(moment(dates.closes_at));
    await expect(competitionPage.date("Postal deadline")).toHaveText(moment(dates.postal_deadline));
    await expect(competitionPage.date("Draw")).toHaveText(moment(dates.draw_at));
    // The default postal deadline is after the close (2 working days), and the draw is not before it.
    expect(Date.parse(dates.postal_deadline)).toBeGreaterThan(Date.parse(dates.closes_at));
    expect(Date.parse(dates.draw_at)).toBeGreaterThanOrEqual(Date.parse(dates.postal_deadline));

    await expect(page.getByText("£1,500 or £1,200 cash")).toBeVisible();
    await expect(page.getByText("1 in 2,000 per ticket, plus free postal entries").first()).toBeVisible();
    await expect(page.getByText(/^Closes in \d+d/).first()).toBeVisible();

    const post = competitionPage.postalEntry;
    await expect(post).toContainText("Each letter gets 4 tickets");
    await expect(post.getByTestId("postal-address")).toContainText("PO Box 4021");
    await expect(post).toContainText(
      `by the postal deadline, ${moment(dates.postal_deadline)}, even if every online ticket has sold`,
    );
    await expect(post.getByTestId("postal-entries-received")).toHaveText("1 postal entry received so far.");

    // Before entry: how a winner is named, and where to choose initials only (CAP 8.28.5).
    const publicity = page.getByTestId("winner-publicity");
    await expect(publicity).toContainText("first name, surname initial and town");
    await expect(publicity.getByRole("link", { name: "your profile" })).toHaveAttribute("href", "/account/profile");

    const how = competitionPage.howItWorks;
    await expect(how).toContainText("The winner is chosen by chance");
    await expect(how).toContainText("each letter gets 4 tickets");
    await expect(how).toContainText(`the draw is ${moment(dates.draw_at)}`);
    await expect(how.getByTestId("seed-commitment")).toHaveText(competition.seed_commitment);
    await expect(how.getByRole("link", { name: "Competitions and free entry" })).toHaveAttribute(
      "href",
      "/docs/competitions",
    );
    await expect(how.getByRole("link", { name: "Fair draws and verification" })).toHaveAttribute(
      "href",
      "/docs/fair-draws",
    );
    // Sales are open, so the entry list is not public yet.
    await expect(competitionPage.entryListLink).toHaveCount(0);

    // The card in the list says the same before anyone clicks.
    await page.goto("/competitions");
    const card = page
      .getByRole("region", { name: /^Live now/ })
      .getByRole("article")
      .filter({ has: page.getByRole("heading", { name: competition.title }) });
    await expect(card).toContainText("Prize worth £1,500 or £1,200 cash");
    await expect(card).toContainText("1 in 2,000 per ticket, plus free postal entries");
    await expect(card).toContainText(`Closes${short(dates.closes_at)}`);
    await expect(card).toContainText(`Draw${short(dates.draw_at)}`);
  });

  test(`the competition page has no axe violations in light and dark mode`, async ({
    page,
    liveCompetition: competition,
  }) => {
    await new CompetitionPage(page).goto(competition);
    await expectAccessibleInBothSchemes(page);
  });
});

test.describe("3 tickets, at most 3 a person", () => {
  test.use({
    competitionFields: { label: "sellout", totalTickets: 3, maxPerUser: 3 },
    playerDetails: { name: "Sally Sellout", credit: 10 },
  });

  test("a sell-out ends online sales but not the competition: 'Sold out — drawn on …', postal entries still open, no draw", async ({
    approvedPlayer: { page },
    liveCompetition: competition,
  }) => {
    const competitionPage = new CompetitionPage(page);
    await competitionPage.goto(competition);
    const online = competitionPage.entry;
    await online.pickQuick("Max 3");
    await online.answer("Yellow");
    await online.buyButton(3).click();
    await expect(online.result).toContainText("Your ticket numbers: #1, #2, #3");
    await expect(online.root.getByText("This competition has sold out")).toBeVisible();

    const { draw_at: drawAt, postal_deadline: postalDeadline } = await publicCompetition(competition.slug);
    await page.reload();
    await expect(page.getByText(`Sold out — drawn on ${moment(drawAt)}`, { exact: true })).toBeVisible();
    await expect(online.root).toContainText("Online sales have ended, but you can still enter free by post.");
    await expect(online.buyButtons).toHaveCount(0);
    // The free route stays usable until its deadline, with the same weight as before.
    const post = competitionPage.postalEntry;
    await expect(post).toContainText("Each letter gets 1 ticket");
    await expect(post.getByTestId("postal-address")).toBeVisible();
    await expect(post).toContainText(moment(postalDeadline));
    const [onlineBox, postBox] = [await online.root.boundingBox(), await post.boundingBox()];
    expect(postBox?.height).toBe(onlineBox?.height);
    await expect(competitionPage.entryListLink).toHaveAttribute("href", `${competition.path}/entries`);

    // The cron runs: nothing is due, so a sold-out competition is not drawn before its time.
    await runDueDraws();
    const after = await publicCompetition(competition.slug);
    expect(after.status).toBe("sold_out");
    expect(after.draw).toBeNull();

    await page.goto("/competitions");
    const card = page
      .getByRole("region", { name: /^Waiting for the draw/ })
      .getByRole("article")
      .filter({ has: page.getByRole("heading", { name: competition.title }) });
    await expect(card).toContainText(`Sold out — drawn on ${moment(drawAt)}`);
  });
});
