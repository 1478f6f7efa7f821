import { readFile } from "node:fs/promises";
import { ledgerKindLabel } from "../../lib/account/ledger-filters";
import { expectAccessibleInBothSchemes } from "./support/axe";
import { buyAs, serviceClient, type TestUser } from "./support/backend";
import { expect, test } from "./support/fixtures";
import { CreditsPage } from "./support/pages/account";
import { Header } from "./support/pages/header";

// /account/credits: the ledger a player builds through the backend (top-ups, adjustments, entries),
// its filters, keyset pages and the CSV download, checked against what the table shows.

/** Posts `count` movements for `player` through the secret-key API: alternately a paid top-up and an adjustment. */
async function postMovements(player: TestUser, count: number) {
  const service = serviceClient();
  for (let i = 0; i < count; i++) {
    const paid = i % 2 === 0;
    const { error } = await service.rpc("add_credits", {
      user_id: player.id,
      amount: 2 + (i % 5),
      transaction_amount: paid ? 2 + (i % 5) : null,
    });
    if (error) throw new Error(`add_credits: ${error.message}`);
  }
}

/** "+£1,234.50" or "−£2.00" as the CSV writes it: "1234.50", "-2.00". */
const csvAmount = (shown: string) => Number(shown.replace(/[£,+]/g, "").replace("−", "-")).toFixed(2);

/** RFC 4180 fields of one CSV line (quoted fields may hold commas and doubled quotes). */
function csvFields(line: string): string[] {
  const fields: string[] = [];
  const pattern = /(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g;
  for (const match of line.matchAll(pattern))
    fields.push(match[1] !== undefined ? match[1].replace(/""/g, '"') : match[2]);
  return fields;
}

/** The current month in the UK, as the month filter takes it (YYYY-MM). */
const thisMonth = () => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London" }).format(new Date()).slice(0, 7);

test.describe("a ledger of more than one page", () => {
  test.use({ playerDetails: { name: "Lena Ledger", credit: 10 } });

  test("filters by kind and month and pages with Older and Newer", async ({ approvedPlayer: player }) => {
    const { page } = player;
    await postMovements(player, 60);
    const credits = new CreditsPage(page);
    await credits.goto();
    // The fixture's sign-up credit (an adjustment), then 30 top-ups and 30 adjustments: 61 in all.
    await expect(credits.count).toHaveText("61");
    await expect(credits.rows).toHaveCount(50);
    await expect(credits.newer).toHaveCount(0);
    const firstPage = await credits.tableRows();
    await credits.older.click();
    await expect(credits.rows).toHaveCount(11);
    await expect(credits.older).toHaveCount(0);
    const oldest = (await credits.tableRows()).at(-1);
    expect(oldest?.slice(0, 3)).toEqual(["Adjustment", "+£10.00", "£10.00"]);
    await credits.newer.click();
    await expect(credits.rows).toHaveCount(50);
    expect(await credits.tableRows()).toEqual(firstPage);

    await credits.kind.selectOption({ label: "Top-up" });
    await credits.show.click();
    await expect(page).toHaveURL(/kind=top_up/);
    await expect(credits.count).toHaveText("30");
    await expect(credits.rows).toHaveCount(30);
    expect(new Set((await credits.tableRows()).map(([kind]) => kind))).toEqual(new Set(["Top-up"]));
    await expect(credits.older).toHaveCount(0);

    await credits.goto(`?month=${thisMonth()}`);
    await expect(credits.count).toHaveText("61");
    await expect(credits.month).toHaveValue(thisMonth());
    await credits.goto("?kind=admin_adjustment&month=2001-01");
    await expect(credits.count).toHaveText("0");
    await expect(page.getByText("No credit movements match this filter.")).toBeVisible();
  });
});

test("bad filter values fall back with a note instead of failing", async ({ approvedPlayer: { page } }) => {
  const credits = new CreditsPage(page);
  await credits.goto("?kind=cash&month=2026-13&before=-1");
  await expect(credits.notice).toContainText("“cash” is not a kind of movement, so every kind is shown.");
  await expect(credits.notice).toContainText("“2026-13” is not a month (YYYY-MM), so every month is shown.");
  await expect(credits.notice).toContainText("That page link was not valid, so the newest page is shown.");
  // The fixture's credit is still listed under the fallback filter.
  await expect(credits.count).toHaveText("1");
  await expect(credits.rows).toHaveCount(1);
});

test.describe("the CSV download", () => {
  test.use({ playerDetails: { name: "Cass Csv", credit: 20 } });

  test("holds exactly the rows on screen and their total, for all kinds and for a filter", async ({
    approvedPlayer: player,
    liveCompetition: competition,
  }) => {
    const { page } = player;
    await postMovements(player, 4);
    await buyAs(player, competition.id, 3);
    const credits = new CreditsPage(page);

    for (const query of ["", "?kind=top_up"]) {
      await credits.goto(query);
      const shown = await credits.tableRows();
      expect(shown.length).toBeGreaterThan(1);
      const [download] = await Promise.all([page.waitForEvent("download"), credits.download.click()]);
      expect(download.suggestedFilename()).toMatch(/^labcash-credit-(top_up-)?\d{4}-\d{2}-\d{2}\.csv$/);
      const lines = (await readFile(await download.path(), "utf8")).trimEnd().split(/\r?\n/);
      expect(lines[0]).toBe("date,kind,amount,balance_after,reference,reason");
      const rows = lines.slice(1, -1).map(csvFields);
      // Oldest first in the file, newest first on screen.
      expect(
        rows
          .reverse()
          .map(([, kind, amount, balanceAfter, reference, reason]) => [
            ledgerKindLabel(kind),
            amount,
            balanceAfter,
            reference,
            reason,
          ]),
      ).toEqual(
        shown.map(([kind, amount, balanceAfter, reference, reason]) => [
          kind,
          csvAmount(amount),
          csvAmount(balanceAfter),
          reference,
          reason,
        ]),
      );
      expect(lines.at(-1)).toBe(`total,,${csvAmount(await credits.net.innerText())},,,`);
    }
  });
});

test("the CSV is for signed-in players only", async ({ request }) => {
  const response = await request.get("/account/credits/export", { maxRedirects: 0 });
  expect(response.status()).toBe(307);
  expect(response.headers().location).toContain("/login?next=%2Faccount%2Fcredits%2Fexport");
});

test(`the credits page has no axe violations in light and dark mode`, async ({ approvedPlayer: { page } }) => {
  await new CreditsPage(page).goto("?kind=cash");
  await expect(new Header(page).accountMenuButton()).toBeEnabled();
  await expectAccessibleInBothSchemes(page);
});
