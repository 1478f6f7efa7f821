import { gotoUntilVisible } from "./support/cached-pages";
import { expect, test } from "./support/fixtures";
import { buyAs, drawNow, recordCharityDonation } from "./support/backend";

test.use({
  competitionFields: {
    label: "charity",
    ticketPrice: 2.5,
    totalTickets: 20,
    charity: { name: "Dales Riverside Trust", registered_number: "1190418", revenue_percent: 20 },
  },
});

// A player reads which charity a competition supports, and what it gets, before entering; once it is drawn anyone can
// see what it owes, what was paid and the proof of payment, there and on the charities page.
test("a competition's charity partner is shown before entry, and after the draw what it was owed and paid, with proof", async ({
  page,
  liveCompetition: competition,
  approvedAccount: player,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(competition.path);
  // Before any way to enter: the line under the key facts comes before the entry form in the page.
  const line = page.getByText(/^Supports Dales Riverside Trust \(registered charity 1190418\)/);
  await expect(line).toBeVisible();
  await expect(line).toContainText("20% of the ticket sales (paid entries, less any refunded)");
  const section = page.getByRole("region", { name: "Charity partner" });
  await expect(section.getByText("Worked out at the draw")).toBeVisible();
  await expect(section.getByText("No payment recorded yet.")).toBeVisible();

  // Four tickets at £2.50: £10 of sales, so £2 is owed once drawn.
  await buyAs(player, competition.id, 4);
  await drawNow(competition);
  const proof = await recordCharityDonation(competition.id, "2.00", "BACS LABCASH 0001");

  const paid = section.getByRole("list", { name: "Payments to Dales Riverside Trust" });
  await gotoUntilVisible(page, competition.path, paid);
  await expect(section.getByRole("definition").first()).toHaveText("£2");
  await expect(paid).toContainText("reference BACS LABCASH 0001");
  const proofLink = paid.getByRole("link", { name: /^Proof of payment/ });
  await expect(proofLink).toHaveAttribute("href", proof);
  const file = await page.request.get(proof);
  expect(file.status()).toBe(200);
  expect(file.headers()["content-type"]).toBe("application/pdf");

  // The charities page gives the charity's totals and leads back to the competition.
  await section.getByRole("link", { name: "Every charity we support, and what each has received" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Charity partners" })).toBeVisible();
  const charity = page.getByRole("region", { name: "Dales Riverside Trust" });
  await expect(charity).toContainText("Registered charity 1190418");
  await expect(charity.getByRole("list", { name: `Payments for ${competition.title}` })).toContainText("£2");
  await charity.getByRole("link", { name: competition.title }).click();
  await expect(page).toHaveURL(new RegExp(`${competition.path}$`));
});
