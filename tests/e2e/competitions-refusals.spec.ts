import { expect, test, type Page } from "@playwright/test";
import { buyAs, createCompetition, createUser } from "./support/backend";
import { LoginPage, signIn } from "./support/pages";
import { storageStatePath } from "./support/users";

// Every reason someone cannot enter, each shown in the words the database uses.

const onlineEntry = (page: Page) => page.getByRole("article", { name: "Enter online" });

test.describe("signed out", () => {
  test("the page says to sign in, and signing in comes back to the competition", async ({ page }) => {
    const competition = await createCompetition({ label: "signed-out" });
    const player = await createUser({ name: "Sid Signin", credit: 5 });
    await page.goto(competition.path);
    const online = onlineEntry(page);
    await expect(online.getByRole("button", { name: /^Buy/ })).toHaveCount(0);
    const signInLink = online.getByRole("link", { name: "Sign in to enter" });
    await expect(signInLink).toHaveAttribute("href", `/login?next=${encodeURIComponent(competition.path)}`);
    await signInLink.click();
    await new LoginPage(page).signIn(player.email);
    await expect(page).toHaveURL(new RegExp(`${competition.path}$`));
    await expect(onlineEntry(page).getByRole("button", { name: "Buy 1 ticket" })).toBeVisible();
    // Not signed in means no "Your tickets" section at all.
  });
});

test.describe("unapproved", () => {
  test.use({ storageState: storageStatePath("pending") });

  test("the page says the account is awaiting approval and links to why", async ({ page }) => {
    const competition = await createCompetition({ label: "unapproved" });
    await page.goto(competition.path);
    const online = onlineEntry(page);
    await expect(online.getByText("Your account is awaiting approval")).toBeVisible();
    await expect(online.getByRole("link", { name: "Why not yet" })).toHaveAttribute("href", "/pending-approval");
    await expect(online.getByRole("button", { name: /^Buy/ })).toHaveCount(0);
    // The free route stays open to them.
    await expect(page.getByRole("article", { name: "Enter free by post" })).toContainText("PO Box");
  });
});

test("a wrong or missing answer is refused", async ({ page }) => {
  const competition = await createCompetition({ label: "answer" });
  const player = await createUser({ name: "Quinn Quiz", credit: 10 });
  await signIn(page, player.email);
  await page.goto(competition.path);
  const online = onlineEntry(page);
  await online.getByRole("button", { name: "Buy 1 ticket" }).click();
  await expect(online.getByRole("alert")).toHaveText("Answer the question to enter");
  await online.getByRole("radio", { name: "Blue" }).check();
  await online.getByRole("button", { name: "Buy 1 ticket" }).click();
  await expect(online.getByRole("alert")).toHaveText("That answer is not correct");
  await expect(page.getByRole("progressbar", { name: "Tickets sold" })).toHaveAttribute("aria-valuenow", "0");
});

test("the per-person cap holds: more than allowed is refused, and at the cap the form is gone", async ({ page }) => {
  const competition = await createCompetition({ label: "cap", totalTickets: 20, maxPerUser: 3 });
  const player = await createUser({ name: "Cap Tain", credit: 10 });
  await signIn(page, player.email);
  await page.goto(competition.path);
  const online = onlineEntry(page);
  await online.getByLabel("Number of tickets").fill("4");
  await expect(online.getByText("You can buy at most 3 more tickets for this competition")).toBeVisible();
  await expect(online.getByRole("button", { name: "Buy 4 tickets" })).toBeDisabled();

  await online.getByRole("group", { name: "Quick picks" }).getByRole("button", { name: "Max 3" }).click();
  await online.getByRole("radio", { name: "Yellow" }).check();
  await online.getByRole("button", { name: "Buy 3 tickets" }).click();
  await expect(online.getByRole("status")).toContainText("Your ticket numbers: #1, #2, #3");
  await expect(online.getByText("You already have the maximum of 3 tickets for this competition")).toBeVisible();
  await expect(online.getByRole("button", { name: /^Buy/ })).toHaveCount(0);
});

test("not enough credit: the page says how much is missing, and so does the server when the balance drops", async ({ page }) => {
  const competition = await createCompetition({ label: "credit", ticketPrice: 2.5 });
  const elsewhere = await createCompetition({ label: "credit-elsewhere", ticketPrice: 1 });
  const player = await createUser({ name: "Penny Less", credit: 3 });
  await signIn(page, player.email);
  await page.goto(competition.path);
  const online = onlineEntry(page);
  await online.getByLabel("Number of tickets").fill("2");
  await expect(online.getByText("Not enough credit: you need £2.00 more.")).toBeVisible();
  await expect(online.getByRole("link", { name: "Add credit" })).toHaveAttribute("href", "/credit");
  await expect(online.getByRole("button", { name: "Buy 2 tickets" })).toBeDisabled();

  // One ticket is affordable when the page loads; then the balance drops in another tab.
  await online.getByLabel("Number of tickets").fill("1");
  await online.getByRole("radio", { name: "Yellow" }).check();
  await buyAs(player, elsewhere.id, 1);
  await online.getByRole("button", { name: "Buy 1 ticket" }).click();
  await expect(online.getByRole("alert")).toContainText("Not enough credit: you need £0.50 more");
  await expect(online.getByRole("alert").getByRole("link", { name: "Add credit" })).toHaveAttribute("href", "/credit");
});

test("a competition that closes while the page is open refuses the entry", async ({ page }) => {
  test.setTimeout(60_000);
  const competition = await createCompetition({ label: "closing", closesInSeconds: 15 });
  const player = await createUser({ name: "Tim Late", credit: 10 });
  await signIn(page, player.email);
  await page.goto(competition.path);
  const online = onlineEntry(page);
  await online.getByRole("radio", { name: "Yellow" }).check();
  // The countdown reaches zero in front of the player; the server has the last word.
  await expect(page.getByText("Closed", { exact: true })).toBeVisible({ timeout: 30_000 });
  await online.getByRole("button", { name: "Buy 1 ticket" }).click();
  await expect(online.getByRole("alert")).toHaveText("This competition has closed");
  await page.reload();
  await expect(onlineEntry(page).getByText("This competition has closed")).toBeVisible();
  await expect(onlineEntry(page).getByRole("button", { name: /^Buy/ })).toHaveCount(0);
});
