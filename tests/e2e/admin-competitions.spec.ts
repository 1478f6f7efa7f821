import { expectAccessibleInBothSchemes } from "./support/axe";
import { buyAs, createCompetition, createUser, drawNow, publicCompetition, type TestUser } from "./support/backend";
import { gotoUntilVisible } from "./support/cached-pages";
import { expect, test } from "./support/fixtures";
import { AdminCompetitionPage, CompetitionFormPage, ukDateTimeLocal } from "./support/pages/admin-competitions";
import { storageStatePath } from "./support/users";

// The admin competition screens: create and publish from the form, per-field refusals with
// nothing saved, the edit rules of a live competition, postal entries, cancelling with refunds, prize
// fulfilment, the history; axe on each page in light and dark.

test.use({ storageState: storageStatePath("admin") });

const DAY = 86_400_000;

let counter = 0;
const unique = (label: string) =>
  `${label}-${Date.now().toString(36)}${process.pid.toString(36)}${(counter++).toString(36)}`;

test("an admin creates a draft from the form, then publishes it and sees the seed commitment", async ({ page }) => {
  // The whole life of a competition through the form, with two axe scans: longer than most tests.
  test.slow();
  const slug = unique("e2e-form");
  const title = `Form made ${slug}`;
  await page.goto("/admin/competitions/new");
  await expect(page.getByRole("heading", { level: 1, name: "New competition" })).toBeVisible();
  await expectAccessibleInBothSchemes(page);

  const form = new CompetitionFormPage(page);
  await form.fill({
    title,
    slug,
    summary: "A prize made through the admin form.",
    prizeDescription: "A games console",
    prizeValue: "450",
    cashAlternative: "400",
    ticketPrice: "0.50",
    totalTickets: "200",
    perPerson: "20",
    closesAt: ukDateTimeLocal(7 * DAY),
    question: "How many days are in a week?",
    answers: ["5", "7", "10"],
    correct: 2,
  });
  await form.save();

  await expect(page).toHaveURL(/\/admin\/competitions\/[0-9a-f-]{36}(\?saved=created)?$/);
  await expect(page.getByRole("status").filter({ hasText: "Draft saved" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  // The dates left empty show their defaults.
  await expect(page.getByText(/\(default\)/)).toHaveCount(2);
  await expect(page.getByText("7 (of 5, 7, 10)")).toBeVisible();
  await expectAccessibleInBothSchemes(page);

  // Publishing is irreversible, so a dialog restates what it fixes; keeping the draft changes nothing.
  await page.getByRole("button", { name: "Publish…" }).click();
  const dialog = page.getByRole("dialog", { name: `Publish ${title}?` });
  await expect(dialog).toContainText("Publishing cannot be undone");
  await expect(dialog).toContainText("SHA-256 commitment");
  for (const term of ["Opens", "Closes", "Postal deadline", "Draw", "Ticket price", "Tickets", "Tickets per person"]) {
    await expect(dialog.getByRole("term").filter({ hasText: new RegExp(`^${term}$`) })).toBeVisible();
  }
  await expect(dialog).toContainText("(default)");
  // Opens at was left empty: it opens when published, not at the time the draft was saved.
  await expect(dialog.getByRole("definition").first()).toHaveText("Now, as soon as it is published");
  await expect(dialog).toContainText("Times are UK time (Europe/London).");
  await expectAccessibleInBothSchemes(page);
  await dialog.getByRole("button", { name: "Keep as draft" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("button", { name: "Publish…" })).toBeFocused();
  await page.getByRole("button", { name: "Publish…" }).click();
  await dialog.getByRole("button", { name: "Publish for good" }).click();
  const published = page.getByRole("status").filter({ hasText: `Published: ${title} is live.` });
  await expect(published).toBeVisible();
  await expect(published).toContainText(/Seed commitment \(SHA-256 of the secret draw seed\): [0-9a-f]{64}/);
  // The commitment shown is the one the public page publishes.
  const live = (await publicCompetition(slug)) as Awaited<ReturnType<typeof publicCompetition>> & {
    seed_commitment: string;
  };
  expect(live.status).toBe("live");
  await expect(published).toContainText(live.seed_commitment);

  await page.goto("/admin/competitions?state=live");
  await expect(page.getByRole("link", { name: title })).toBeVisible();
  await expect(page.getByRole("link", { name: /^Live/ })).toHaveAttribute("aria-current", "page");
  await expectAccessibleInBothSchemes(page);
});

test("bad input gets a message at each field, nothing is saved, and SQL's refusal is shown with the typing kept", async ({
  page,
  liveCompetition,
}) => {
  // Two refusals, each with two axe scans: longer than most tests.
  test.slow();
  const title = `Never saved ${unique("bad")}`;
  await page.goto("/admin/competitions/new");
  const form = new CompetitionFormPage(page);
  await form.fill({
    title: "ab",
    slug: "Not A Slug!",
    prizeValue: "lots",
    ticketPrice: "0.10",
    totalTickets: "0",
    perPerson: "5",
    opensAt: ukDateTimeLocal(3 * DAY),
    closesAt: ukDateTimeLocal(2 * DAY),
    question: "Which is a fruit?",
    answers: ["Apple"],
  });
  await form.save();

  const expectations: [string, RegExp][] = [
    ["Title", /Give a title of 3 to 120 characters/],
    ["Address (slug)", /Use lower-case letters, digits and single hyphens/],
    ["Prize description", /Describe the prize/],
    ["Prize value (£)", /Give the prize value in pounds/],
    ["Ticket price (£)", /The ticket price must be from £0.25/],
    ["Total tickets", /Give the number of tickets, from 1 to 1,000,000/],
    ["Closes at", /The close must be after the opening/],
  ];
  // Every error at once, each beside its field, a count in the summary, and focus on the first field to fix.
  for (const [label, message] of expectations) {
    await expect(form.field(label)).toHaveAttribute("aria-invalid", "true");
    await expect(form.field(label)).toHaveAccessibleDescription(message);
  }
  await expect(page.getByText(/\d+ fields need changing: see the messages beside them\./)).toBeVisible();
  await expect(form.field("Title")).toBeFocused();
  // Two fields, two messages, each on its own line.
  await expect(page.getByText("Give at least 2 answers to choose from", { exact: true })).toBeVisible();
  await expect(page.getByText("Choose which of the answers is correct", { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/competitions\/new$/);
  await expectAccessibleInBothSchemes(page);

  // Everything valid but the address, which another competition has: SQL refuses, the form keeps the typing.
  await form.fill({
    title,
    slug: liveCompetition.slug,
    prizeDescription: "A prize",
    prizeValue: "100",
    ticketPrice: "1.00",
    totalTickets: "100",
    closesAt: ukDateTimeLocal(4 * DAY),
    answers: ["Apple", "Brick"],
    correct: 1,
  });
  await form.save();
  await expect(page.getByRole("form", { name: "New competition" }).getByRole("alert")).toHaveText(
    "1 field needs changing: see the message beside it.",
  );
  // SQL's refusal is about the address, so it is shown beside the address, which gets the focus.
  await expect(form.field("Address (slug)")).toHaveAccessibleDescription(
    new RegExp(`The address "${liveCompetition.slug}" is already used by another competition`),
  );
  await expect(form.field("Address (slug)")).toBeFocused();
  await expect(form.field("Title")).toHaveValue(title);
  await expect(page).toHaveURL(/\/admin\/competitions\/new$/);

  await page.goto("/admin/competitions?state=draft");
  await expect(page.getByRole("link", { name: title })).toHaveCount(0);
});

test("editing a live competition: its address, dates and ticket numbering are fixed, the wording can change", async ({
  page,
  liveCompetition,
}) => {
  await page.goto(`/admin/competitions/${liveCompetition.id}/edit`);
  const form = new CompetitionFormPage(page);
  await expect(
    page.getByText("This competition is live: its address, dates and ticket numbering are fixed."),
  ).toBeVisible();
  for (const label of [
    "Address (slug)",
    "Opens at",
    "Closes at",
    "Postal deadline (optional)",
    "Draw time (optional)",
    "Ticket numbers",
  ]) {
    await expect(form.field(label)).toBeDisabled();
  }
  await expect(form.field("Ticket price (£)")).toBeEnabled();
  await expectAccessibleInBothSchemes(page);
  await form.fill({ title: `${liveCompetition.title} (edited)` });
  await form.save("Save changes");
  await expect(page.getByRole("status").filter({ hasText: "Changes saved." })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: `${liveCompetition.title} (edited)` })).toBeVisible();
});

test("an admin records a postal entry and sees the ticket numbers it was given", async ({ page, liveCompetition }) => {
  const admin = new AdminCompetitionPage(page);
  await admin.goto(liveCompetition.id);
  await admin.recordPostalEntry({ name: "Pat Post", address: "1 High Street, Harrogate", answer: "Yellow" });
  await expect(admin.postalForm.getByLabel("Postal address")).toHaveAccessibleDescription(
    /The address must include a UK postcode/,
  );

  await admin.postalForm.getByLabel("Postal address").fill("1 High Street\nHarrogate HG1 2AB");
  await admin.postalForm.getByRole("button", { name: "Record postal entry" }).click();
  // £1 tickets and a £0.87 stamp: one ticket, numbered after the 50 online ones.
  await expect(admin.postalForm.getByRole("status")).toHaveText("Recorded Pat Post's postal entry: ticket #51.");
  await expect(admin.postalForm.getByLabel("Entrant's name")).toHaveValue("");
  const row = page.getByRole("row", { name: /Pat Post/ });
  await expect(row).toContainText("HG1 2AB");
  await expect(row).toContainText("#51");

  // The entries CSV names the letter writer and their tickets; a player is refused it.
  const csv = await page.request.get(`/admin/competitions/${liveCompetition.id}/entries.csv`);
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-type"]).toContain("text/csv");
  const lines = (await csv.text()).trimEnd().split("\n");
  expect(lines[0]).toBe(
    "entry_id,created_at,route,status,ticket_numbers,tickets,amount,user_id,name,email,postal_address,postcode",
  );
  expect(lines.slice(1).join("\n")).toMatch(
    /,postal,active,51,1,0\.00,,Pat Post,,"1 High Street\nHarrogate HG1 2AB",HG1 2AB$/,
  );
  const player = await page
    .context()
    .browser()!
    .newContext({ storageState: storageStatePath("player") });
  const refused = await player.request.get(`/admin/competitions/${liveCompetition.id}/entries.csv`);
  expect(refused.status()).toBe(403);
  expect(await refused.text()).not.toContain("Pat Post");
  await player.close();

  // The answer is picked from the published choices; a blank one is asked for, not called wrong.
  const answer = admin.postalForm.getByLabel(/^Answer to:/);
  await expect(answer.getByRole("option")).toHaveText(["Choose the answer", "Blue", "Yellow", "Purple"]);
  await admin.recordPostalEntry({ name: "No Answer", address: "3 Mid Lane, York YO1 7HH", answer: "" });
  await expect(answer).toHaveAccessibleDescription(/Choose the answer the letter gives/);
  await expect(answer).toBeFocused();
  await expect(admin.postalForm).not.toContainText("That answer is not correct");
  // A wrong answer is SQL's refusal, shown beside the answer.
  await admin.recordPostalEntry({ name: "Wrong Answer", address: "2 Low Road, Leeds LS1 4AP", answer: "Blue" });
  await expect(answer).toHaveAccessibleDescription(/That answer is not correct/);
  await expectAccessibleInBothSchemes(page);
});

test("cancelling with refunds goes through a dialog that needs a reason", async ({ page, liveCompetition }) => {
  const buyer = await createUser({ name: "Rita Refund", credit: 10 });
  await buyAs(buyer, liveCompetition.id, 2);
  const admin = new AdminCompetitionPage(page);
  await admin.goto(liveCompetition.id);
  await expect(page.getByText("£2.00", { exact: true })).toBeVisible();

  await page.getByRole("button", { name: "Cancel competition" }).click();
  const dialog = page.getByRole("alertdialog", { name: `Cancel ${liveCompetition.title}?` });
  await expect(dialog).toContainText("1 paid entry is refunded");
  await expectAccessibleInBothSchemes(page);
  await dialog.getByRole("button", { name: "Cancel and refund" }).click();
  await expect(dialog.getByLabel("Reason (entrants will read it)")).toHaveAccessibleDescription(
    /Give a reason of at least 3 characters/,
  );
  await dialog.getByLabel("Reason (entrants will read it)").fill("The prize is no longer available");
  await dialog.getByRole("button", { name: "Cancel and refund" }).click();

  await expect(
    page.getByRole("status").filter({ hasText: "Cancelled. 1 paid entry was refunded to credit" }),
  ).toBeVisible();
  await expect(page.getByText("The prize is no longer available")).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancel competition" })).toHaveCount(0);
  expect((await publicCompetition(liveCompetition.slug)).status).toBe("cancelled");
});

/** A competition `player` alone enters, drawn at once by the cron's function (its draw time moved to now). */
async function drawnFor(player: TestUser) {
  const competition = await createCompetition({ label: "fulfil", question: null, cashAlternative: 300 });
  await buyAs(player, competition.id, 3, null);
  expect((await drawNow(competition)).status).toBe("drawn");
  return competition;
}

test("a prize is marked claimed, verified, then delivered with a note and a proof-of-delivery reference", async ({
  page,
}) => {
  // Four steps through the console, each with a full axe run in both schemes.
  test.slow();
  const winner = await createUser({ name: "Walt Winner", credit: 10 });
  const competition = await drawnFor(winner);

  // Unfiltered, so the card stays on the page as its status changes.
  await page.goto("/admin/competitions/winners");
  const card = page.getByRole("article", { name: competition.title });
  await expect(card).toContainText("Walt Winner");
  await expect(card).toContainText(winner.email);
  await expect(card).toContainText("Not chosen yet");
  await expectAccessibleInBothSchemes(page);

  // Not delivered before the claim is verified (SQL's refusal).
  await card.getByLabel("Prize status").selectOption("delivered");
  await card.getByLabel("Proof-of-delivery reference").fill("RM123456785GB");
  await card.getByRole("button", { name: "Save" }).click();
  await expect(card.getByRole("alert")).toHaveText(
    "Verify the winner's claim (their identity) before marking the prize delivered",
  );

  // Verified needs what was checked: the document and the last four characters of its number, never the whole.
  await card.getByLabel("Prize status").selectOption("verified");
  await card.getByLabel("Proof-of-delivery reference").fill("");
  await card.getByRole("button", { name: "Save" }).click();
  await expect(card.getByLabel("Document checked")).toHaveAccessibleDescription("Choose the document you checked");
  await expect(card.getByLabel("Last four characters of its number")).toHaveAccessibleDescription(
    /^Give the last four letters or digits of the document's number/,
  );
  const identityCheck = async () => {
    await card.getByLabel("Document checked").selectOption("Passport");
    await card.getByLabel("Last four characters of its number").fill("9ab4");
    await card.getByLabel("Identity check note").fill("Checked on a video call");
  };
  // Nor verified before a claim: a claim by letter or phone is recorded first.
  await identityCheck();
  await card.getByRole("button", { name: "Save" }).click();
  await expect(card.getByRole("alert")).toHaveText("Record the winner's claim before verifying it");
  await card.getByLabel("Prize status").selectOption("claimed");
  await card.getByRole("button", { name: "Save" }).click();
  await expect(card.getByRole("status")).toHaveText(`Saved: ${competition.title} is claimed.`);
  await expect(card.getByRole("list", { name: "Prize progress" })).toContainText(/Claimed \d/);

  await card.getByLabel("Prize status").selectOption("verified");
  await identityCheck();
  await card.getByLabel("Notes").fill("Passport checked by video call");
  await card.getByRole("button", { name: "Save" }).click();
  await expect(card.getByRole("status")).toHaveText(`Saved: ${competition.title} is verified.`);
  // Who checked and when come from SQL; the check stands beside "Verified", and its form is gone.
  await expect(card.getByRole("list", { name: "Prize progress" }).getByRole("listitem").nth(1)).toHaveText(
    /^Verified \d.*Passport ending 9AB4, checked by \S.*Checked on a video call$/,
  );
  await expect(card.getByLabel("Document checked")).toHaveCount(0);

  await card.getByLabel("Prize status").selectOption("delivered");
  await card.getByRole("button", { name: "Save" }).click();
  await expect(card.getByLabel("Proof-of-delivery reference")).toHaveAccessibleDescription(
    /Give the proof-of-delivery reference/,
  );
  await card.getByLabel("Proof-of-delivery reference").fill("RM123456785GB");
  await card.getByLabel("Notes").fill("Passport checked by video call; signed for by Walt");
  await card.getByRole("button", { name: "Save" }).click();
  await expect(card.getByRole("status")).toHaveText(`Saved: ${competition.title} is delivered.`);

  await page.goto("/admin/competitions/winners?status=delivered");
  const delivered = page.getByRole("article", { name: competition.title });
  await expect(delivered.getByLabel("Proof-of-delivery reference")).toHaveValue("RM123456785GB");
  await expect(delivered.getByLabel("Notes")).toHaveValue("Passport checked by video call; signed for by Walt");
  // The badge and the steps agree: each step dated, the proof beside "Delivered".
  await expect(delivered.locator("header").getByText("Delivered", { exact: true })).toBeVisible();
  const steps = delivered.getByRole("list", { name: "Prize progress" }).getByRole("listitem");
  await expect(steps).toHaveText([
    /^Claimed \d/,
    /^Verified \d.*Passport ending 9AB4/,
    /^Delivered \d.*Proof of delivery: RM123456785GB$/,
  ]);
  await expectAccessibleInBothSchemes(page);
  // The competition's own page shows the same history.
  await page.goto(`/admin/competitions/${competition.id}`);
  await expect(page.getByRole("list", { name: "Prize progress" }).getByRole("listitem")).toHaveText([
    /^Claimed \d/,
    /^Verified \d.*Passport ending 9AB4, checked by \S.*Checked on a video call$/,
    /^Delivered \d.*Proof of delivery: RM123456785GB$/,
  ]);

  // The public winners page says the same.
  const publicCard = page.getByRole("article", { name: competition.title });
  await gotoUntilVisible(page, "/winners", publicCard.getByText("Delivered", { exact: true }));
  await expect(publicCard).not.toContainText("RM123456785GB");

  // The history shows it with its revenue (3 × £1) and the prize's value as its cost (no cash chosen).
  await page.goto("/admin/competitions/history");
  const row = page.getByRole("row", { name: new RegExp(competition.title) });
  await expect(row).toContainText("£3.00");
  await expect(row).toContainText("£100.00");
  await expect(row).toContainText("Walt W.");
  await expectAccessibleInBothSchemes(page);
});

test("the list filters by state and shows the figures", async ({ page, liveCompetition }) => {
  await page.goto("/admin/competitions");
  const row = page.getByRole("row", { name: new RegExp(liveCompetition.title) });
  await expect(row).toContainText("0 / 50");
  await expect(row).toContainText("Live");
  await page.getByRole("link", { name: /^Cancelled/ }).click();
  await expect(page).toHaveURL(/state=cancelled$/);
  await expect(page.getByRole("link", { name: liveCompetition.title })).toHaveCount(0);
  await expectAccessibleInBothSchemes(page);
});
