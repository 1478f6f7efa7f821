import { expectAccessibleInBothSchemes } from "./support/axe";
import { buyAs, createCompetition, createUser, drawNow } from "./support/backend";
import { expect, test } from "./support/fixtures";
import { CompetitionFormPage, ukDateTimeLocal } from "./support/pages/admin-competitions";
import { storageStatePath } from "./support/users";

// A competition's charity partner in the console: named on a new draft (a registered number no register gives is
// refused beside its field, with what was typed kept) and kept on the edit form; once drawn, what is owed, and a
// donation recorded with its proof, whose bytes are checked on the server and served from the site's own path.
// Axe on the form with the charity's fields shown and on the page with the donation form, light and dark.

test.use({ storageState: storageStatePath("admin") });

const DAY = 86_400_000;

let counter = 0;
const unique = (label: string) =>
  `${label}-${Date.now().toString(36)}${process.pid.toString(36)}${(counter++).toString(36)}`;

/** A small PDF, as a charity's receipt would be. */
const RECEIPT = Buffer.from("%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n");

test("an admin names a charity partner on a new draft; a wrong registered number is refused beside it", async ({
  page,
}) => {
  // A refusal, a save and the edit form, with two axe scans: longer than most tests.
  test.slow();
  const slug = unique("e2e-charity");
  const title = `For charity ${slug}`;
  await page.goto("/admin/competitions/new");
  const form = new CompetitionFormPage(page);
  await form.fill({
    title,
    slug,
    prizeDescription: "A prize for a good cause",
    prizeValue: "200",
    ticketPrice: "2.00",
    totalTickets: "100",
    perPerson: "10",
    closesAt: ukDateTimeLocal(7 * DAY),
  });

  // The charity's fields show once there is something for it.
  await expect(form.field("Registered charity number")).toBeHidden();
  await page.getByRole("radio", { name: "A share of the ticket revenue" }).check();
  await form.field("Charity's name").fill("The Lab Trust");
  await form.field("Registered charity number").fill("12345");
  await form.field("Charity's website (optional)").fill("https://lab-trust.example.org");
  await form.field("Share of the ticket revenue (%)").fill("12.5");
  await expectAccessibleInBothSchemes(page);
  await form.save();

  const number = form.field("Registered charity number");
  await expect(number).toHaveAttribute("aria-invalid", "true");
  await expect(number).toHaveAccessibleDescription(
    /Give the charity's registered number: 6 or 7 digits \(England and Wales\), SC and 6 digits \(Scotland\) or NIC and 6 digits \(Northern Ireland\)/,
  );
  await expect(number).toBeFocused();
  await expect(page).toHaveURL(/\/admin\/competitions\/new$/);
  // What was typed is kept.
  await expect(form.field("Charity's name")).toHaveValue("The Lab Trust");
  await expect(form.field("Share of the ticket revenue (%)")).toHaveValue("12.5");

  // A Scottish number, as people write it: read without spaces and in capitals.
  await number.fill("sc 012 345");
  await form.save();
  await expect(page).toHaveURL(/\/admin\/competitions\/[0-9a-f-]{36}(\?saved=created)?$/);
  const id = page.url().match(/competitions\/([0-9a-f-]{36})/)![1];
  await expect(page.getByRole("heading", { level: 2, name: "Charity partner" })).toBeVisible();
  await expect(page.getByText("SC012345", { exact: true })).toBeVisible();
  await expect(page.getByText("12.5% of the ticket sales (paid entries, less any refunded)")).toBeVisible();
  await expect(page.getByText("Worked out at the draw")).toBeVisible();
  await expect(page.getByRole("link", { name: /The Lab Trust/ })).toHaveAttribute(
    "href",
    "https://lab-trust.example.org",
  );

  // The edit form starts from what was saved.
  await page.goto(`/admin/competitions/${id}/edit`);
  await expect(page.getByRole("radio", { name: "A share of the ticket revenue" })).toBeChecked();
  await expect(form.field("Charity's name")).toHaveValue("The Lab Trust");
  await expect(form.field("Registered charity number")).toHaveValue("SC012345");
  await expect(form.field("Share of the ticket revenue (%)")).toHaveValue("12.5");
  await expect(form.field("Charity's website (optional)")).toHaveValue("https://lab-trust.example.org");
});

test("once drawn, an admin records a donation with its proof, which the site serves as it was sent", async ({
  page,
}) => {
  // A competition drawn, two submissions and two axe scans: longer than most tests.
  test.slow();
  const competition = await createCompetition({
    label: "charity-donation",
    ticketPrice: 2,
    question: null,
    charity: { name: "E2E Food Bank", registered_number: "1234567", revenue_percent: 25 },
  });
  const buyer = await createUser({ name: "Charity Buyer", credit: 10 });
  await buyAs(buyer, competition.id, 2, null);

  // Before the draw, what is owed is not known and nothing can be recorded.
  await page.goto(`/admin/competitions/${competition.id}`);
  await expect(page.getByText("Worked out at the draw")).toBeVisible();
  await expect(page.getByRole("form", { name: "Record a donation" })).toHaveCount(0);

  await drawNow(competition);
  await page.goto(`/admin/competitions/${competition.id}`);
  // A quarter of the £4.00 the two tickets paid, worked out by SQL.
  const figure = (term: string) =>
    page
      .getByRole("term")
      .filter({ hasText: new RegExp(`^${term}$`) })
      .locator("xpath=following-sibling::dd[1]");
  const owed = figure("Owed");
  await expect(owed).toHaveText("£1");
  await expect(page.getByText("No payment recorded yet.")).toBeVisible();
  const donation = page.getByRole("form", { name: "Record a donation" });
  await expectAccessibleInBothSchemes(page);

  // A web page named like a PDF is refused by its bytes, beside the file; what was typed stays.
  const reference = `E2E-${unique("ref")}`;
  await donation.getByLabel("Amount (£)").fill("1.00");
  await donation.getByLabel("Payment reference").fill(reference);
  const proof = donation.getByLabel("Proof of the donation");
  await proof.setInputFiles({
    name: "receipt.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from("<html><script>alert(1)</script></html>"),
  });
  await donation.getByRole("button", { name: "Record donation" }).click();
  await expect(proof).toHaveAttribute("aria-invalid", "true");
  await expect(proof).toHaveAccessibleDescription(/Choose a PDF, JPEG, PNG or WebP file/);
  await expect(donation.getByLabel("Payment reference")).toHaveValue(reference);

  await proof.setInputFiles({ name: "receipt.pdf", mimeType: "application/pdf", buffer: RECEIPT });
  await donation.getByRole("button", { name: "Record donation" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Donation recorded and published with its proof." }),
  ).toBeVisible();
  // The form is empty again, ready for the next payment; the donation is listed and paid.
  await expect(donation.getByLabel("Payment reference")).toHaveValue("");
  const row = page.getByRole("list", { name: "Donations to E2E Food Bank" }).getByRole("listitem").filter({
    hasText: reference,
  });
  await expect(row).toContainText("£1");
  await expect(figure("Paid")).toHaveText("£1");

  // The proof, from the site's own path: the bytes sent, as a PDF shown in the browser, never sniffed as a page.
  const link = row.getByRole("link", { name: /^Proof of payment/ });
  const href = await link.getAttribute("href");
  expect(href).toMatch(/^\/media\/charity-proofs\/[0-9a-f-]{36}\.pdf$/);
  const served = await page.request.get(href!);
  expect(served.status()).toBe(200);
  expect(served.headers()["content-type"]).toBe("application/pdf");
  expect(served.headers()["content-disposition"]).toMatch(/^inline\b/);
  expect(served.headers()["x-content-type-options"]).toBe("nosniff");
  expect(served.headers()["content-security-policy"]).toBe("sandbox");
  expect(served.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(Buffer.from(await served.body()).equals(RECEIPT)).toBe(true);
  // A name that is not a proof's is not found.
  expect((await page.request.get("/media/charity-proofs/receipt.pdf")).status()).toBe(404);
});
