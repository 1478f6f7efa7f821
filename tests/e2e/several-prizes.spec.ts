import { buyAs, createUser, drawNow, publicDraw } from "./support/backend";
import { gotoUntilVisible } from "./support/cached-pages";
import { expect, test } from "./support/fixtures";
import { TicketCheck } from "./support/pages/notifications";

test.use({
  competitionFields: {
    label: "three-prizes",
    totalTickets: 10,
    maxPerUser: 5,
    prizeValue: 500,
    prizes: [
      { description: "A pair of headphones", value: 150, cash_alternative: 120 },
      { description: "A phone case", value: 25 },
    ],
  },
});

// A competition with three prizes, as a visitor meets it: every prize before entry; once drawn, each prize's winner
// on the competition page, its own verification page that recomputes every prize (and fails on a tampered list,
// whichever prize's page it is), the live draw page revealing the last prize first, and "Did I win?" naming the prize.
test("a three-prize competition names every prize before entry, and after the draw each prize's winner, verified in the browser", async ({
  page,
  liveCompetition: competition,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(competition.path);
  const prizes = page.getByRole("region", { name: "3 prizes, drawn in order from one draw" });
  await expect(prizes.getByRole("listitem")).toHaveText([
    /^1st prize: A test prize \(£500\)/,
    /^2nd prize: A pair of headphones \(£150, or £120 cash\)/,
    /^3rd prize: A phone case \(£25\)/,
  ]);

  const buyer = await createUser({ name: "Tia Three", credit: 10, label: "three-prizes" });
  await buyAs(buyer, competition.id, 4);
  const other = await createUser({ name: "Ola Other", credit: 10, label: "three-prizes" });
  await buyAs(other, competition.id, 2);
  const { draw } = await drawNow(competition);
  const published = await publicDraw(draw!.id);
  expect(published.prizes.map((p) => p.prize_position)).toEqual([1, 2, 3]);
  const second = published.prizes[1];

  // The competition page: each prize's ticket and winner, and its own verification page.
  const verifySecond = prizes.getByRole("link", { name: "Verify the 2nd prize" });
  await gotoUntilVisible(page, competition.path, verifySecond);
  await expect(prizes.getByRole("listitem").nth(1)).toContainText(`Ticket #${second.winning_number} won:`);

  // "Did I win?" names the prize a ticket won.
  const check = new TicketCheck(page);
  await check.check(String(second.winning_number));
  await expect(check.answer).toContainText(
    `Ticket #${second.winning_number} won the 2nd prize in ${competition.title}: A pair of headphones.`,
  );

  await verifySecond.click();
  await expect(page).toHaveURL(new RegExp(`/winners/${second.draw_id}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Verify the draw: ${competition.title}, 2nd prize`);
  const everyPrize = page.getByRole("region", { name: "Every prize of this draw" });
  await expect(everyPrize.getByRole("listitem")).toHaveCount(3);
  await expect(page.getByText("This draw checks out")).toBeVisible();

  // The live draw page, on the record after the draw: the winners come last prize first, the 1st prize at the end.
  await page.goto(`${competition.path}/draw`);
  await expect(page.getByText("This draw checks out")).toBeVisible();
  await expect(page.getByRole("heading", { level: 3, name: /prize:/ })).toHaveText([
    /The 3rd prize: A phone case$/,
    /The 2nd prize: A pair of headphones$/,
    /The 1st prize: A test prize$/,
  ]);

  // A ticket list changed on its way fails the check on every prize's page.
  await page.route("**/ticket-list.csv", async (route) => {
    const response = await route.fetch();
    const lines = (await response.text()).split("\n");
    [lines[1], lines[2]] = [lines[2], lines[1]];
    await route.fulfill({ response, body: lines.join("\n") });
  });
  for (const prize of published.prizes) {
    await page.goto(`/winners/${prize.draw_id}`);
    await expect(page.getByText(/This draw does not check out/)).toBeVisible();
  }
});
