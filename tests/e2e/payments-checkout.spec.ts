import { expect, test } from "./support/fixtures";
import { buyAs, createUser, signedInClient } from "./support/backend";
import { FROM_THE_PAGE_CACHE } from "./support/cached-pages";
import { CompetitionPage } from "./support/pages/competition";
import { BuyCreditPage } from "./support/pages/credit";
import { Header } from "./support/pages/header";

// Top-ups through the embedded test checkout (no Stripe keys on the e2e server): the amounts,
// the bonus and every refusal come from SQL; the checkout confirms through the webhook's path.

/** The player's balance and month's top-ups as the database has them. */
async function moneyOf(player: { email: string }) {
  const client = await signedInClient(player.email);
  const account = await client.rpc("get_my_account");
  const protections = await client.rpc("get_my_protections");
  if (account.error || protections.error) throw new Error(account.error?.message ?? protections.error?.message);
  return { balance: Number(account.data.credits), toppedUp: Number(protections.data.month_topped_up) };
}

test.describe("a new player with no credit", () => {
  test.use({ playerDetails: { name: "Nova Newcomer", credit: 0 } });

  test("tops up £60 by debit card and sees £61.50", async ({ approvedPlayer: player }) => {
    const { page } = player;
    const credit = new BuyCreditPage(page);
    await credit.goto();
    await expect(page.getByRole("group", { name: "Quick picks" }).getByRole("button")).toHaveText([
      "£10",
      "£25",
      "£50",
      "£100",
      "£200",
    ]);
    // The bonus and the credit landing are SQL's (2.5% from £50, 5% from £200).
    await page.getByRole("button", { name: "£200" }).click();
    await expect(page.getByTestId("quote-bonus")).toHaveText("£10.00");
    await expect(credit.creditAdded).toHaveText("£210.00");
    await credit.checkout("60", "£61.50");
    await page.getByRole("button", { name: "Pay by debit card" }).click();

    await expect(page).toHaveURL(/\/purchase-success\?top_up=/);
    await expect(page.getByText("Payment received: £61.50 credit added")).toBeVisible();
    await expect(page.getByTestId("balance-after-top-up")).toHaveText("Your balance is now £61.50");
    expect(await moneyOf(player)).toEqual({ balance: 61.5, toppedUp: 60 });
  });

  test("a declined payment and an abandoned one change nothing", async ({ approvedPlayer: player }) => {
    const { page } = player;
    const credit = new BuyCreditPage(page);
    await credit.goto();
    await credit.checkout("25", "£25.00");
    await page.getByRole("button", { name: "Decline" }).click();
    await expect(page.getByText("Your payment was declined")).toBeVisible();
    await expect(page.getByText("Nothing was taken and your balance is unchanged.")).toBeVisible();

    await page.getByRole("link", { name: "Back to Buy credit" }).click();
    await expect(new Header(page).themeToggle()).toBeEnabled();
    await credit.checkout("50", "£51.25");
    await page.getByRole("button", { name: "Abandon" }).click();
    await expect(page).toHaveURL(/\/credit$/);

    expect(await moneyOf(player)).toEqual({ balance: 0, toppedUp: 0 });
  });

  test("a credit-card top-up over £250 in the month is refunded, and the player sees why", async ({
    approvedPlayer: player,
  }) => {
    const { page } = player;
    const credit = new BuyCreditPage(page);
    await credit.goto();
    await credit.checkout("300", "£315.00");
    await page.getByRole("button", { name: "Pay by credit card" }).click();

    await expect(page.getByText("Your payment has been refunded")).toBeVisible();
    await expect(page.getByTestId("refund-reason")).toContainText("Credit-card top-ups are limited to £250");
    expect((await moneyOf(player)).balance).toBe(0);
  });

  test("bad amounts are explained at the field and nothing is written", async ({ approvedPlayer: player }) => {
    const { page } = player;
    const credit = new BuyCreditPage(page);
    await credit.goto();
    const cases: [string, RegExp][] = [
      ["12.345", /at most two decimal places/],
      ["-5", /cannot be negative/],
      ["NaN", /Enter an amount in pounds/],
      ["ten pounds", /Enter an amount in pounds/],
      ["5000.01", /The most you can top up at once is £5,000/],
      ["4.99", /The smallest top-up is £5/],
    ];
    for (const [amount, message] of cases) {
      await credit.amount.fill(amount);
      await expect(credit.amount).toHaveAccessibleDescription(message);
      await expect(credit.amount).toHaveAttribute("aria-invalid", "true");
    }
    await credit.continueButton.click();
    await expect(credit.amount).toHaveAccessibleDescription(/The smallest top-up is £5/);
    await expect(page).toHaveURL(/\/credit$/);
    expect(await moneyOf(player)).toEqual({ balance: 0, toppedUp: 0 });
  });
});

test.describe("a player with a monthly limit of £20", () => {
  test.use({ playerDetails: { name: "Lim Ited", credit: 0 } });

  test("sees what is left of it, and a top-up over it is refused before any checkout", async ({
    approvedPlayer: player,
  }) => {
    const limited = await (await signedInClient(player.email)).rpc("set_monthly_limit", { p_limit: 20 });
    if (limited.error) throw new Error(limited.error.message);
    const { page } = player;
    const credit = new BuyCreditPage(page);
    await credit.goto();
    await credit.amount.fill("15");
    await expect(page.getByTestId("quote-monthly-remaining")).toHaveText("£20.00");
    await credit.amount.fill("25");
    await expect(credit.amount).toHaveAccessibleDescription(
      /over your monthly limit: £20.00 left to top up this month/,
    );
    await credit.continueButton.click();
    await expect(credit.amount).toHaveAccessibleDescription(/over your monthly limit/);
    await expect(page).toHaveURL(/\/credit$/);
    expect(await moneyOf(player)).toEqual({ balance: 0, toppedUp: 0 });
  });
});

test("another player's test checkout, and a made-up one, are not found", async ({ approvedPlayer: { page } }) => {
  const other = await createUser({ name: "Olive Other", label: "other" });
  const created = await (await signedInClient(other.email)).rpc("create_top_up", { p_amount: 20, p_provider: "test" });
  if (created.error) throw new Error(created.error.message);
  for (const id of [created.data.id, "00000000-0000-4000-8000-00000000dead"]) {
    const response = await page.goto(`/payment/test-checkout/${id}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("button", { name: "Pay by debit card" })).toHaveCount(0);
  }
});

test.describe("short of credit on a competition", () => {
  test.use({ playerDetails: { name: "Sam Short", credit: 0 }, competitionFields: { ticketPrice: 2 } });

  test("tops up exactly the shortfall and lands on the competition with the tickets", async ({
    approvedPlayer: player,
    liveCompetition: competition,
  }) => {
    const { page } = player;
    const competitionPage = new CompetitionPage(page);
    await competitionPage.goto(competition);
    await competitionPage.entry.quantity.fill("3");
    await competitionPage.entry.answer("Yellow");
    await expect(competitionPage.entry.root.getByText("Not enough credit: you need £6.00 more.")).toBeVisible();
    await competitionPage.entry.root.getByRole("link", { name: "Add credit" }).click();

    await expect(page).toHaveURL(/\/payment\/competition\?/);
    await expect(page.getByTestId("competition-top-up-amount")).toHaveText("£6.00");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByText("This is a test checkout: no card is taken.")).toBeVisible();
    await page.getByRole("button", { name: "Pay by debit card" }).click();

    await expect(page).toHaveURL(new RegExp(`${competition.path}\\?entry=`));
    await expect(page.getByText("Payment received: you're in!")).toBeVisible();
    await expect(page.getByTestId("paid-entry-tickets")).toHaveText("#1, #2, #3");
    await expect(competitionPage.yourTicketNumbers).toHaveCount(3);
    expect(await moneyOf(player)).toEqual({ balance: 0, toppedUp: 6 });
  });
});

test.describe("a competition that sells out while the player pays", () => {
  test.use({
    playerDetails: { name: "Lou Late", credit: 0 },
    competitionFields: { label: "sells-out", ticketPrice: 2, totalTickets: 3, maxPerUser: 3 },
  });

  test("the credit stays and the player is told why there are no tickets", async ({
    approvedPlayer: player,
    liveCompetition: competition,
  }) => {
    const { page } = player;
    await page.goto(`/payment/competition?competition=${competition.id}&quantity=3&answer=Yellow`);
    await expect(page.getByTestId("competition-top-up-amount")).toHaveText("£6.00");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByText("This is a test checkout: no card is taken.")).toBeVisible();

    const rival = await createUser({ name: "Rita Rival", credit: 5, label: "rival" });
    await buyAs(rival, competition.id, 1);
    await page.getByRole("button", { name: "Pay by debit card" }).click();

    await expect(page).toHaveURL(/\/purchase-success\?top_up=/);
    await expect(page.getByTestId("balance-after-top-up")).toHaveText("Your balance is now £6.00");
    await expect(page.getByTestId("entry-error")).toContainText("Only 2 tickets left");
    await expect(page.getByTestId("entry-error")).toContainText("The credit stayed in your balance");
  });
});

test("the Stripe webhook is not there without Stripe keys", async ({ request }) => {
  const response = await request.post("/api/webhooks/stripe", {
    data: "{}",
    headers: { "stripe-signature": "t=1,v1=x" },
  });
  expect(response.status()).toBe(404);
});

test("every page says payments are in test mode, the cached ones included", async ({ page, request }) => {
  // The e2e server runs on the embedded backend without Stripe keys: the test checkout is on.
  for (const path of ["/", "/competitions", "/docs/getting-started", "/login"]) {
    await page.goto(path);
    const banner = page.getByRole("complementary", { name: "Test payments" });
    await expect(banner, path).toBeVisible();
    await expect(banner, path).toContainText("no card is charged");
  }
  // Still from the cache: the banner reads the environment, never the request.
  const cached = await request.get("/competitions");
  expect(cached.headers()["x-nextjs-cache"]).toMatch(FROM_THE_PAGE_CACHE);
  expect(await cached.text()).toContain("Test payments.");
});
