import { expectAccessibleInBothSchemes } from "./support/axe";
import { complainAs, complaintSettings, complaintsOf } from "./support/backend";
import { expect, test } from "./support/fixtures";
import { ComplaintsInfoPage, MyComplaintsPage } from "./support/pages/complaints";

// Complaints (code of practice 1.2): the public page with the process, deadlines and the independent body;
// signed-in players complain through a form and get a reference number, and follow their complaints.

const DETAILS = "My tickets for the draw did not appear in My entries after I paid for them.";

test("the footer leads to the complaints page: the deadlines, e-mail for anyone, the dispute body", async ({
  page,
}) => {
  const settings = await complaintSettings();
  await page.goto("/");
  await page.getByRole("contentinfo").getByRole("link", { name: "Complaints" }).click();
  await expect(page).toHaveURL(/\/complaints$/);
  const info = new ComplaintsInfoPage(page);
  await expect(info.heading).toBeVisible();

  const deadlines = info.section("Our deadlines");
  await expect(deadlines).toContainText("Within 2 working days we acknowledge your complaint.");
  await expect(deadlines).toContainText("Within 28 days we send you our final answer.");
  await expect(
    info.section("How to complain").getByRole("link", { name: settings.complaints_contact }),
  ).toHaveAttribute("href", `mailto:${settings.complaints_contact}`);
  const body = settings.dispute_resolution_body;
  await expect(
    info.section("If you are not happy with our answer").getByRole("link", { name: body.name }),
  ).toHaveAttribute("href", body.url);

  // Signed out, the form is behind sign-in, which comes back to it.
  await info.makeComplaint.click();
  await expect(page).toHaveURL(/\/login\?next=%2Faccount%2Fcomplaints$/);
});

test("a complaint with bad fields is explained field by field and not saved; a good one gets a reference", async ({
  approvedPlayer: { page, ...player },
}) => {
  const complaints = new MyComplaintsPage(page);
  await complaints.goto();
  await expect(complaints.list).toContainText("You have not made any complaints");

  await complaints.complain({ subject: "No", details: "Too short" });
  await expect(complaints.subject).toHaveAccessibleDescription(/Enter a subject of at least 3 characters/);
  await expect(complaints.reference).not.toHaveAttribute("aria-invalid");
  await expect(complaints.details).toHaveAccessibleDescription(/Tell us what happened in at least 20 characters/);
  await expect(complaints.subject).toHaveAttribute("aria-invalid", "true");
  // What was typed stays, so it can be corrected.
  await expect(complaints.details).toHaveValue("Too short");
  expect(await complaintsOf(player)).toEqual([]);

  await complaints.complain({ subject: "Missing tickets", reference: "Payment 42", details: DETAILS });
  await expect(complaints.confirmation).toContainText(/^Your reference is LC-\d{6}/);
  await expect(complaints.confirmation).toContainText(/We will acknowledge your complaint by \d{1,2} \w+ \d{4}/);
  await expect(complaints.confirmation).toContainText(/send you our final answer by \d{1,2} \w+ \d{4}/);
  await expect(complaints.subject).toHaveValue("");
  await expect(complaints.subject).not.toHaveAttribute("aria-invalid");

  const [saved] = await complaintsOf(player);
  expect(saved).toMatchObject({ subject: "Missing tickets", status: "received" });
  await expect(complaints.confirmation).toContainText(`Your reference is ${saved.reference}`);
  const listed = complaints.complaint(saved.reference);
  await expect(listed).toContainText("Status: Received");
  await expect(listed).toContainText(/Final answer\s*Due by \d{1,2} \w+ \d{4}/);
});

test("a fourth complaint in a day is refused with the reason and the e-mail address", async ({
  approvedPlayer: { page, ...player },
}) => {
  const settings = await complaintSettings();
  for (const n of [1, 2, 3]) await complainAs(player, `Complaint number ${n}`, DETAILS);
  const complaints = new MyComplaintsPage(page);
  await complaints.goto();
  await complaints.complain({ subject: "One more thing", details: DETAILS });
  await expect(complaints.alert).toBeVisible();
  await expect(complaints.alert.getByRole("link", { name: settings.complaints_contact })).toHaveAttribute(
    "href",
    `mailto:${settings.complaints_contact}`,
  );
  await expect(complaints.details).toHaveValue(DETAILS);
  expect(await complaintsOf(player)).toHaveLength(3);
});

test(`the complaints pages have no axe violations in light and dark mode`, async ({ approvedPlayer: { page } }) => {
  const info = new ComplaintsInfoPage(page);
  await info.goto();
  await expect(info.heading).toBeVisible();
  await expectAccessibleInBothSchemes(page);

  const complaints = new MyComplaintsPage(page);
  await complaints.goto();
  await complaints.complain({ subject: "", details: "" });
  await expect(complaints.subject).toHaveAttribute("aria-invalid", "true");
  // Off the button: axe judges the resting colours, not the hover state.
  await page.mouse.move(0, 0);
  await expectAccessibleInBothSchemes(page);
  await complaints.complain({ subject: "A fair complaint", details: DETAILS });
  await expect(complaints.confirmation).toContainText("Your reference is");
  await page.mouse.move(0, 0);
  await expectAccessibleInBothSchemes(page);
});
