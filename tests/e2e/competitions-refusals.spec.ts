import { expect, test } from "./support/fixtures";
import { buyAs, createCompetition, makeDue } from "./support/backend";
import { CompetitionPage } from "./support/pages/competition";
import { wrongAnswerWait } from "../support/wrong-answer-wait";
import { SignInPage } from "./support/pages/sign-in";
import { storageStatePath } from "./support/users";

// Every reason someone cannot enter, each shown in the words the database uses.

test.describe("signed out", () => {
  test("the page says to sign in, and signing in comes back to the competition", async ({
    page,
    liveCompetition: competition,
    approvedAccount: player,
  }) => {
    const competitionPage = new CompetitionPage(page);
    await competitionPage.goto(competition);
    const online = competitionPage.entry;
    await expect(online.buyButtons).toHaveCount(0);
    const signInLink = online.root.getByRole("link", { name: "Sign in to enter" });
    await expect(signInLink).toHaveAttribute("href", `/login?next=${encodeURIComponent(competition.path)}`);
    await signInLink.click();
    await new SignInPage(page).signIn(player.email, player.password);
    await expect(page).toHaveURL(new RegExp(`${competition.path}$`));
    await expect(online.buyButton(1)).toBeVisible();
    // Not signed in means no "Your tickets" section at all.
  });
});

test.describe("unapproved", () => {
  test.use({ storageState: storageStatePath("pending") });

  test("the page says the account is awaiting approval and links to why", async ({
    page,
    liveCompetition: competition,
  }) => {
    const competitionPage = new CompetitionPage(page);
    await competitionPage.goto(competition);
    const online = competitionPage.entry;
    await expect(online.root.getByText("Your account is awaiting approval")).toBeVisible();
    await expect(online.root.getByRole("link", { name: "Why not yet" })).toHaveAttribute(
      "href",
      `/pending-approval?next=${encodeURIComponent(competition.path)}`,
    );
    await expect(online.buyButtons).toHaveCount(0);
    // The free route stays open to them.
    await expect(competitionPage.postalEntry).toContainText("PO Box");
  });
});

test("a wrong or missing answer is refused", async ({ approvedPlayer: { page }, liveCompetition: competition }) => {
  const competitionPage = new CompetitionPage(page);
  await competitionPage.goto(competition);
  const online = competitionPage.entry;
  await online.buy(1, null);
  await expect(online.refusal).toHaveText("Answer the question to enter");
  await online.buy(1, "Blue");
  // A wrong answer closes the question for a while (security-holes.spec.ts): the form says until when.
  await expect(online.refusal).toHaveText(wrongAnswerWait("That answer is not correct."));
  await expect(competitionPage.ticketsSold).toHaveAttribute("aria-valuenow", "0");
});

test.describe("with a cap of 3 tickets a person", () => {
  test.use({ competitionFields: { label: "cap", totalTickets: 20, maxPerUser: 3 } });

  test("the per-person cap holds: more than allowed is refused, and at the cap the form is gone", async ({
    approvedPlayer: { page },
    liveCompetition: competition,
  }) => {
    const competitionPage = new CompetitionPage(page);
    await competitionPage.goto(competition);
    const online = competitionPage.entry;
    await online.quantity.fill("4");
    await expect(online.root.getByText("You can buy at most 3 more tickets for this competition")).toBeVisible();
    await expect(online.buyButton(4)).toBeDisabled();

    await online.pickQuick("Max 3");
    await online.answer("Yellow");
    await online.buyButton(3).click();
    await expect(online.result).toContainText("Your ticket numbers: #1, #2, #3");
    await expect(online.root.getByText("You already have the maximum of 3 tickets for this competition")).toBeVisible();
    await expect(online.buyButtons).toHaveCount(0);
  });
});

test.describe("£2.50 a ticket with £3 of credit", () => {
  test.use({
    competitionFields: { label: "credit", ticketPrice: 2.5 },
    playerDetails: { name: "Penny Less", credit: 3 },
  });

  test("not enough credit: the page says how much is missing, and so does the server when the balance drops", async ({
    approvedPlayer: player,
    liveCompetition: competition,
  }) => {
    const elsewhere = await createCompetition({ label: "credit-elsewhere", ticketPrice: 1 });
    const competitionPage = new CompetitionPage(player.page);
    await competitionPage.goto(competition);
    const online = competitionPage.entry;
    await online.quantity.fill("2");
    await expect(online.root.getByText("Not enough credit: you need £2.00 more.")).toBeVisible();
    await expect(online.root.getByRole("link", { name: "Add credit" })).toHaveAttribute(
      "href",
      `/payment/competition?competition=${competition.id}&quantity=2`,
    );
    await expect(online.buyButton(2)).toBeDisabled();

    // One ticket is affordable when the page loads; then the balance drops in another tab.
    await online.quantity.fill("1");
    await online.answer("Yellow");
    await buyAs(player, elsewhere.id, 1);
    await online.buyButton(1).click();
    await expect(online.refusal).toContainText("Not enough credit: you need £0.50 more");
    await expect(online.refusal.getByRole("link", { name: "Add credit" })).toHaveAttribute("href", "/credit");
  });
});

test.describe("closing a minute after it is made", () => {
  test.use({ competitionFields: { label: "closing", closesInSeconds: 60 } });

  // Time is moved, not waited for: the browser's clock runs on past the close while the competition's close
  // becomes now on the server.
  test("a competition that closes while the page is open refuses the entry", async ({
    approvedPlayer: { page },
    liveCompetition: competition,
  }) => {
    await page.clock.install();
    const competitionPage = new CompetitionPage(page);
    await competitionPage.goto(competition);
    const online = competitionPage.entry;
    await online.answer("Yellow");
    await expect(page.getByText(/^Closes in/).first()).toBeVisible();
    await makeDue(competition.id, "close");
    await page.clock.fastForward(Date.parse(competition.closes_at) - Date.now() + 2_000);
    // The countdown reaches the close in front of the player and counts on to the draw; the server has the last word.
    await expect(page.getByText(/^Draw in/).first()).toBeVisible();
    await online.buyButton(1).click();
    await expect(online.refusal).toHaveText("This competition has closed");
    await page.reload();
    await expect(online.root.getByText("This competition has closed")).toBeVisible();
    await expect(online.buyButtons).toHaveCount(0);
    // Online sales are over; the free route is open until the postal deadline.
    await expect(online.root).toContainText("you can still enter free by post");
    await expect(competitionPage.postalEntry).toContainText("Each letter gets 1 ticket");
  });
});
