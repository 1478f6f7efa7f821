import type { Page } from "@playwright/test";
import { expectAccessibleInBothSchemes } from "./support/axe";
import { buyAs, createCompetition, createUser, drawNow, serviceClient } from "./support/backend";
import { expect, test } from "./support/fixtures";
import { CompetitionFormPage, ukDateTimeLocal } from "./support/pages/admin-competitions";
import { storageStatePath } from "./support/users";

// Several prizes from one draw in the console: further prizes added on a new draft's form (a wrong one refused
// beside its field, with what was typed kept), kept on the edit form and the competition's page, one removed; and
// for a drawn three-prize competition, each prize's winning ticket and winner on its page, each linked to its own
// fulfilment card, which says which prize it is. Axe on the form with its prizes and on both pages, light and dark.

test.use({ storageState: storageStatePath("admin") });

const DAY = 86_400_000;

let counter = 0;
const unique = (label: string) =>
  `${label}-${Date.now().toString(36)}${process.pid.toString(36)}${(counter++).toString(36)}`;

/** The competition page's list of prizes, one row each after the header. */
const prizeRows = (page: Page) =>
  page
    .getByRole("table", { name: "Prizes in the order they are drawn" })
    .getByRole("row")
    .filter({
      has: page.getByRole("cell"),
    });

test("an admin adds further prizes on a new draft, sees them kept, and removes one; a refusal shows only beside the prize it named", async ({
  page,
}) => {
  // Two saves, a refusal, the edit form and an axe scan: longer than most tests.
  test.slow();
  const slug = unique("e2e-prizes");
  const title = `Three prizes ${slug}`;
  await page.goto("/admin/competitions/new");
  const form = new CompetitionFormPage(page);
  await form.fill({
    title,
    slug,
    prizeDescription: "A road bike",
    prizeValue: "900",
    ticketPrice: "1.00",
    totalTickets: "100",
    perPerson: "10",
    closesAt: ukDateTimeLocal(7 * DAY),
  });

  // The first prize reads as the 1st once there is a 2nd; a new prize's description takes the focus.
  await page.getByRole("button", { name: "Add a prize" }).click();
  await expect(form.field("2nd prize description")).toBeFocused();
  await expect(form.field("1st prize description")).toHaveValue("A road bike");
  await expect(form.field("1st prize value (£)")).toHaveValue("900");
  await form.field("2nd prize description").fill("Wireless earbuds");
  await form.field("2nd prize value (£)").fill("149.99");
  await page.getByRole("button", { name: "Add a prize" }).click();
  await form.field("3rd prize description").fill("A voucher");
  await form.field("3rd prize cash alternative (£, optional)").fill("20");

  // The 3rd prize has no value: refused beside it, naming the prize; everything typed stays.
  await form.save();
  const value = form.field("3rd prize value (£)");
  await expect(value).toHaveAttribute("aria-invalid", "true");
  await expect(value).toHaveAccessibleDescription(/Give the 3rd prize's value in pounds/);
  await expect(value).toBeFocused();
  await expect(page).toHaveURL(/\/admin\/competitions\/new$/);
  await expect(form.field("2nd prize description")).toHaveValue("Wireless earbuds");
  await expect(form.field("3rd prize cash alternative (£, optional)")).toHaveValue("20");
  await expectAccessibleInBothSchemes(page);

  // Removing the 2nd prize moves the refused 3rd up: the refusal named the 3rd prize, so it no longer shows beside
  // the row that is now the 2nd, nor beside a prize added in the 3rd place, nor in the count above the button.
  const fieldsToChange = page.getByText("1 field needs changing: see the message beside it.");
  await expect(fieldsToChange).toBeVisible();
  await page.getByRole("button", { name: "Remove the 2nd prize" }).click();
  await expect(fieldsToChange).toHaveCount(0);
  await expect(form.field("2nd prize description")).toHaveValue("A voucher");
  const movedUp = form.field("2nd prize value (£)");
  await expect(movedUp).not.toHaveAttribute("aria-invalid");
  await expect(movedUp).toHaveAccessibleDescription("In pounds, e.g. 250 or 249.99.");
  await page.getByRole("button", { name: "Add a prize" }).click();
  await form.field("3rd prize description").fill("Wireless earbuds");
  await expect(form.field("3rd prize value (£)")).not.toHaveAttribute("aria-invalid");
  await form.field("3rd prize value (£)").fill("149.99");

  await movedUp.fill("25");
  await form.save();
  await expect(page).toHaveURL(/\/admin\/competitions\/[0-9a-f-]{36}(\?saved=created)?$/);
  const id = page.url().match(/competitions\/([0-9a-f-]{36})/)![1];
  await expect(page.getByRole("heading", { level: 2, name: "Prizes" })).toBeVisible();
  await expect(prizeRows(page)).toHaveCount(3);
  await expect(prizeRows(page).nth(0)).toContainText(/1st.*A road bike.*£900.*None/);
  await expect(prizeRows(page).nth(1)).toContainText(/2nd.*A voucher.*£25.*£20/);
  await expect(prizeRows(page).nth(2)).toContainText(/3rd.*Wireless earbuds.*£149\.99.*None/);

  // The edit form starts from the saved list; removing the 2nd moves the 3rd up, keeping what it holds.
  await page.goto(`/admin/competitions/${id}/edit`);
  await expect(form.field("2nd prize description")).toHaveValue("A voucher");
  await expect(form.field("2nd prize value (£)")).toHaveValue("25");
  await expect(form.field("2nd prize cash alternative (£, optional)")).toHaveValue("20");
  await expect(form.field("3rd prize value (£)")).toHaveValue("149.99");
  await page.getByRole("button", { name: "Remove the 2nd prize" }).click();
  await expect(page.getByRole("button", { name: "Add a prize" })).toBeFocused();
  await expect(form.field("3rd prize description")).toHaveCount(0);
  await expect(form.field("2nd prize description")).toHaveValue("Wireless earbuds");
  await expect(form.field("2nd prize value (£)")).toHaveValue("149.99");
  await form.save("Save changes");

  await expect(page.getByRole("status").filter({ hasText: "Changes saved." })).toBeVisible();
  await expect(prizeRows(page)).toHaveCount(2);
  await expect(prizeRows(page).nth(1)).toContainText(/2nd.*Wireless earbuds.*£149\.99.*None/);
});

test("a drawn three-prize competition shows each prize's winner, each linked to its own fulfilment", async ({
  page,
}) => {
  // Three entrants, a draw and two pages with axe scans: longer than most tests.
  test.slow();
  const competition = await createCompetition({
    label: "three-prizes",
    question: null,
    prizes: [
      { description: "Wireless earbuds", value: 150 },
      { description: "A voucher", value: 25, cash_alternative: 20 },
    ],
  });
  for (const name of ["Ada Alpha", "Ben Bravo", "Cai Charlie"]) {
    await buyAs(await createUser({ name, credit: 5 }), competition.id, 1, null);
  }
  expect((await drawNow(competition)).status).toBe("drawn");
  // Which ticket won which prize is the draw's to say: read as the public reads it.
  const { data, error } = await serviceClient().rpc("get_competition_prizes", { p_slug: competition.slug });
  expect(error).toBeNull();
  const prizes = data as {
    prize_position: number;
    draw_id: string;
    winning_number: number;
    winner_display_name: string;
  }[];
  expect(prizes.map((p) => p.prize_position)).toEqual([1, 2, 3]);

  await page.goto(`/admin/competitions/${competition.id}`);
  await expect(prizeRows(page)).toHaveCount(3);
  for (const [i, prize] of prizes.entries()) {
    const row = prizeRows(page).nth(i);
    await expect(row).toContainText(`#${prize.winning_number}`);
    await expect(row).toContainText(prize.winner_display_name);
    await expect(row).toContainText("Awaiting claim");
  }
  const second = prizes[1];
  await expect(page.getByRole("link", { name: "Verify the draw of the 2nd prize" })).toHaveAttribute(
    "href",
    `/winners/${second.draw_id}`,
  );
  await expectAccessibleInBothSchemes(page);

  // Each prize's link opens the winners page at its own card, which names the prize; a filter leaves that so.
  await page.getByRole("link", { name: "Fulfilment of the 2nd prize" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/competitions/winners#prize-${second.draw_id}$`));
  const card = page.getByRole("article", { name: `${competition.title} 2nd prize: Wireless earbuds` });
  await expect(card).toContainText(`ticket #${second.winning_number}`);
  await expect(card).toContainText(second.winner_display_name);
  await page.goto("/admin/competitions/winners?status=awaiting_claim");
  for (const [i, description] of ["A test prize", "Wireless earbuds", "A voucher"].entries()) {
    const named = page.getByRole("article", {
      name: `${competition.title} ${["1st", "2nd", "3rd"][i]} prize: ${description}`,
    });
    await expect(named).toContainText(`ticket #${prizes[i].winning_number}`);
  }
  await expectAccessibleInBothSchemes(page);
});

test("once tickets are given, the prizes' number and values are fixed but their wording can change", async ({
  page,
}) => {
  const competition = await createCompetition({
    label: "prizes-sold",
    question: null,
    prizes: [{ description: "Wireless earbuds", value: 150, cash_alternative: 120 }],
  });
  await buyAs(await createUser({ name: "Dee Delta", credit: 5 }), competition.id, 1, null);

  await page.goto(`/admin/competitions/${competition.id}/edit`);
  const form = new CompetitionFormPage(page);
  await expect(
    page.getByText(/so are how many prizes there are, what each is worth and its cash alternative/),
  ).toBeVisible();
  await expect(form.field("2nd prize value (£)")).toBeDisabled();
  await expect(form.field("2nd prize value (£)")).toHaveValue("150");
  await expect(form.field("2nd prize cash alternative (£, optional)")).toBeDisabled();
  await expect(page.getByRole("button", { name: "Add a prize" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Remove the 2nd prize" })).toHaveCount(0);
  await form.field("2nd prize description").fill("Wireless earbuds, noise cancelling");
  await form.save("Save changes");

  await expect(page.getByRole("status").filter({ hasText: "Changes saved." })).toBeVisible();
  await expect(prizeRows(page).nth(1)).toContainText(/2nd.*Wireless earbuds, noise cancelling.*£150.*£120/);
});
