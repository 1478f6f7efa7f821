import type { Browser, Page } from "@playwright/test";
import { expectAccessibleInBothSchemes } from "./support/axe";
import { expect, test, watchForHydrationErrors } from "./support/fixtures";
import { buyAs, createUser, signedInClient, type TestUser } from "./support/backend";
import { CompetitionPage } from "./support/pages/competition";

test.use({
  competitionFields: { label: "pick", ticketPrice: 1, totalTickets: 150, maxPerUser: 10, ticketNumbering: "pick" },
  playerDetails: { name: "Pia Picker", credit: 10 },
});

/** Puts `numbers` in `user`'s basket, as their own grid would. */
async function holdAs(user: TestUser, competitionId: string, numbers: number[]) {
  const client = await signedInClient(user.email);
  const { error } = await client.rpc("hold_ticket_numbers", { p_competition_id: competitionId, p_numbers: numbers });
  if (error) throw new Error(`hold: ${error.message}`);
}

/** The same player on a phone (390×844, touch), in a context of its own that carries the desktop page's session. */
async function onPhone(browser: Browser, desktop: Page, baseURL: string | undefined, hydrationErrors: string[]) {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    storageState: await desktop.context().storageState(),
  });
  watchForHydrationErrors(context, hydrationErrors);
  return context.newPage();
}

// Pick your numbers. On a desktop: the grid marks a number another player bought, a player picks one by pointer
// and one found with the search box and chosen by keyboard on the next page, buys both, is shown the numbers with
// the focus on them, and sees them marked as theirs, apart from the other player's. Then on a phone: a lucky dip of
// five shows where each number landed and jumps to it, a tap on a number someone else took meanwhile turns at once
// and is undone with a calm word, and the bought numbers come into view.
test("a player picks two numbers and buys them, then on a phone buys a lucky dip of five", async ({
  approvedPlayer: { page },
  liveCompetition: competition,
  browser,
  baseURL,
  hydrationErrors,
}) => {
  const other = await createUser({ name: "Olive Other", credit: 10, label: "other" });
  await buyAs(other, competition.id, 1, "Yellow", [3]);

  const competitionPage = new CompetitionPage(page);
  await competitionPage.goto(competition);
  const online = competitionPage.entry;
  // Before anything is chosen the form says what to do, calmly (no warning role, nothing announced).
  await expect(online.root.getByText("Choose your numbers, or take a lucky dip", { exact: true })).toBeVisible();
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
  await expect(online.result).toBeFocused();
  await expect(online.result).toBeInViewport();
  await expect(competitionPage.yourTicketNumbers).toHaveText(["#7", "#142"]);
  // Their own tickets are named as theirs; the other player's sold number stays "taken".
  await expect(secondPage.getByRole("button", { name: "142, your ticket" })).toBeDisabled();
  await online.root.getByRole("button", { name: "Previous" }).click();
  await expect(firstPage.getByRole("button", { name: "7, your ticket" })).toBeDisabled();
  await expect(firstPage.getByRole("button", { name: "3, taken" })).toBeDisabled();

  const phone = await onPhone(browser, page, baseURL, hydrationErrors);
  const phonePage = new CompetitionPage(phone);
  await phonePage.goto(competition);
  const entry = phonePage.entry;
  const grid = entry.root.getByRole("group", { name: /^Numbers \d+ to \d+$/ });
  await expect(grid.getByRole("button", { name: "7, your ticket" })).toBeVisible();
  await entry.root
    .getByRole("group", { name: "How many numbers" })
    .getByRole("button", { name: "5", exact: true })
    .tap();
  await entry.root.getByRole("button", { name: "Lucky dip 5" }).tap();
  const landed = entry.root.getByRole("list", { name: /^Your lucky dip landed on 5 numbers/ }).getByRole("button");
  await expect(landed).toHaveCount(5);
  const dipped = (await landed.allTextContents()).map((text) => Number(text.slice(1)));
  expect(dipped.filter((n) => [3, 7, 142].includes(n))).toEqual([]);
  // Each chip shows its number in the grid, in the basket.
  const last = dipped[4];
  await landed.nth(4).tap();
  const lastButton = grid.getByRole("button", { name: String(last), exact: true });
  await expect(lastButton).toBeFocused();
  await expect(lastButton).toHaveAttribute("aria-pressed", "true");

  // A free-looking number another player put in their basket a moment ago: the tap turns it at once, and the
  // hold's refusal undoes it calmly.
  await entry.root.getByRole("spinbutton", { name: "Find a number" }).fill("1");
  await entry.root.getByRole("button", { name: "Go", exact: true }).tap();
  // Once the page's own answer is in (before it, nothing on a turned page is marked taken or can be tapped).
  const firstOnPhone = entry.root.getByRole("group", { name: "Numbers 1 to 100" });
  await expect(firstOnPhone).toHaveAttribute("aria-busy", "false");
  const free = await firstOnPhone.getByRole("button", { name: /^\d+$/, pressed: false }).first().textContent();
  await holdAs(other, competition.id, [Number(free)]);
  await grid.getByRole("button", { name: free!, exact: true }).tap();
  await expect(
    entry.root.getByText(
      `#${free} is in another player's basket for a few minutes, so your numbers are back as they were.`,
    ),
  ).toBeVisible();
  await expect(grid.getByRole("button", { name: `${free}, in another basket` })).toBeDisabled();
  await expect(entry.root.getByText(/^Your numbers: .*, held for you until/)).toBeVisible();
  // From the top: axe's target-size counts a control the sticky header covers as too small, so where the last
  // tap's scroll came to rest (later on a slower machine) decided the answer.
  await phone.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
  await expect.poll(() => phone.evaluate(() => window.scrollY)).toBe(0);
  await expectAccessibleInBothSchemes(phone, "a lucky dip of five on a phone");

  await entry.answer("Yellow");
  await entry.buyButton(5).tap();
  await expect(entry.result).toContainText("Your ticket numbers:");
  await expect(entry.result).toBeFocused();
  await expect(entry.result).toBeInViewport();
  await expect(phonePage.yourTicketNumbers).toHaveCount(7);
  await phone.context().close();
});

// On a slow connection a page of the grid can be read before a hold lands and arrive after it: the number just held
// stays in the basket, and the server holds it with the next one. The hold is kept back until the page has been read,
// and the page until the hold has been answered, so the order is the slow one every time.
test("a grid page read before a hold lands does not take the held number back out of the basket", async ({
  approvedPlayer: { page },
  liveCompetition: competition,
}) => {
  const competitionPage = new CompetitionPage(page);
  await competitionPage.goto(competition);
  const online = competitionPage.entry;
  const seven = online.root
    .getByRole("group", { name: "Numbers 1 to 100" })
    .getByRole("button", { name: "7", exact: true });
  await expect(seven).toBeEnabled();

  let pageRead!: () => void;
  const secondPageRead = new Promise<void>((done) => (pageRead = done));
  const holdAnswered = page.waitForResponse(
    (r) => r.request().method() === "POST" && Boolean(r.request().headers()["next-action"]),
  );
  await page.route(
    (url) => url.pathname === competition.path,
    async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      await secondPageRead;
      await route.continue();
    },
  );
  await page.route(
    (url) => url.pathname.endsWith("/numbers") && url.searchParams.get("from") === "101",
    async (route) => {
      const response = await route.fetch();
      pageRead();
      await holdAnswered;
      await route.fulfill({ response });
    },
  );

  await seven.click();
  await online.root.getByRole("spinbutton", { name: "Find a number" }).fill("142");
  await online.root.getByRole("button", { name: "Go", exact: true }).click();
  const found = online.root
    .getByRole("group", { name: "Numbers 101 to 150" })
    .getByRole("button", { name: "142", exact: true });
  await expect(found).toBeFocused();
  await page.unrouteAll({ behavior: "wait" });
  await found.click();
  await expect(online.root.getByText(/^Your numbers: #7, #142, held for you until/)).toBeVisible();
});
