import { gotoUntilVisible } from "./support/cached-pages";
import { expect, test } from "./support/fixtures";
import { buyAs, drawChecks, drawNow } from "./support/backend";
import { overflowingBoxes } from "./support/overflow";

test.use({ competitionFields: { label: "trust", totalTickets: 10, prizeValue: 180 } });

const thisMonth = new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric", timeZone: "Europe/London" });

// The trust page (/transparency) as a visitor on a phone meets it: a draw counts on it once drawn, the check their
// browser runs on the draw's page is counted once a day however often they look, and each figure leads to the
// draws behind it.
test("the trust page counts a draw once drawn and a visitor's browser check once, and leads to the draws behind its figures", async ({
  page,
  liveCompetition: competition,
  approvedAccount: player,
}) => {
  await buyAs(player, competition.id, 2);
  const draw = (await drawNow(competition)).draw!;

  // The count is sent as a server action once the browser has found the draw correct: by the draw page's reveal
  // and by the verification page, and counted once for this visitor today however often they look.
  const counted = () =>
    page.waitForResponse((r) => r.request().method() === "POST" && Boolean(r.request().headers()["next-action"]));
  let sent = counted();
  await page.goto(`${competition.path}/draw`);
  await expect(page.getByText("This draw checks out")).toBeVisible();
  await sent;
  expect(await drawChecks(draw.id)).toBe(1);
  for (const visit of [() => page.goto(`/winners/${draw.id}`), () => page.reload()]) {
    sent = counted();
    await visit();
    await expect(page.getByText("This draw checks out")).toBeVisible();
    await sent;
    expect(await drawChecks(draw.id)).toBe(1);
  }

  await page.setViewportSize({ width: 390, height: 844 });
  const month = page.getByRole("region", { name: thisMonth.format(new Date()) });
  const row = month.getByRole("row", { name: new RegExp(competition.title) });
  await gotoUntilVisible(page, "/transparency", row);
  await expect(page.getByRole("heading", { level: 1, name: "Transparency" })).toBeVisible();
  await expect(row).toContainText("2 (0)");
  await expect(row).toContainText("1 in 2");
  await expect(row).toContainText("£180.00");
  await expect(row).toContainText("awaiting claim");
  // The month's figures and the draws listed under them are one answer: as many rows as draws counted.
  const rows = (await month.getByRole("row").count()) - 1;
  const drawnThisMonth = month.getByRole("link", { name: `Competitions drawn: ${rows}` });
  await expect(drawnThisMonth).toHaveAttribute("href", /#draws-\d{4}-\d{2}$/);
  expect(await overflowingBoxes(page)).toEqual([]);

  await row.getByRole("link", { name: competition.title }).click();
  await expect(page).toHaveURL(new RegExp(`/winners/${draw.id}$`));
  await expect(page.getByText("This draw checks out")).toBeVisible();

  // The code of practice's publication commitment leads here.
  await page.goto("/docs/legal/code-of-practice");
  await page.getByRole("main").getByRole("link", { name: "Transparency" }).first().click();
  await expect(page).toHaveURL(/\/transparency$/);
});
