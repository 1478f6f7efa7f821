import { randomUUID } from "node:crypto";
import { expectAccessibleInBothSchemes } from "./support/axe";
import { buyAs, createCompetition, createUser, mailCampaigns, setMarketingConsent } from "./support/backend";
import { expect, test } from "./support/fixtures";
import { AdminMailPage } from "./support/pages/admin-mail";
import { storageStatePath } from "./support/users";

// Admin mail: compose to a segment, preview the rendered message and the number it reaches
// (SQL's count: marketing held back from a player who did not agree), send, and follow the messages in the
// outbox; bad input gets a message per field and queues nothing; axe in light and dark. Each test uses its
// own competition and players, since workers share one database.

test.use({ storageState: storageStatePath("admin") });

const tag = () => `${Date.now().toString(36)}${randomUUID().slice(0, 4)}`;

test("sends marketing to a competition's entrants after the preview, and the outbox shows each message", async ({
  page,
}) => {
  const t = tag();
  const competition = await createCompetition({ label: "mail" });
  const [ann, ben, cat] = await Promise.all(
    ["Ann", "Ben", "Cat"].map((first) => createUser({ name: `${first} Mail${t}`, credit: 5, label: "mail" })),
  );
  for (const player of [ann, ben, cat]) await buyAs(player, competition.id, 1);
  // Consent is never assumed: Ann and Ben give it, Cat was never asked.
  await setMarketingConsent(ann, true);
  await setMarketingConsent(ben, true);

  const mail = new AdminMailPage(page);
  await mail.goto();
  await expect(page.getByRole("heading", { level: 1, name: "Mail" })).toBeVisible();
  const subject = `New prizes this week ${t}`;
  await mail.fill({
    kind: "Marketing",
    segment: "Entrants of a competition",
    competition: competition.title,
    subject,
    body: "Three new competitions open on Friday.\nGood luck!",
  });
  await mail.previewMail();

  await expect(mail.preview.getByRole("heading", { name: "Preview" })).toBeFocused();
  await expect(mail.preview).toContainText(`This marketing goes to 2 players: Entrants of ${competition.title}`);
  await expect(mail.preview).toContainText("1 player in the segment will not get it: 1 did not agree to marketing");
  await expect(mail.preview).toContainText(`${ann.name} <${ann.email}>`);
  await expect(mail.preview).toContainText(subject);
  await expect(mail.preview.locator("pre")).toContainText("Hello Ann,");
  await expect(mail.preview.locator("pre")).toContainText("Unsubscribe in one click, no sign-in needed:");

  // Changing the draft hides the preview: nothing unseen can be sent.
  await mail.compose.getByLabel("Subject").fill(`${subject}!`);
  await expect(mail.preview).toHaveCount(0);
  await mail.compose.getByLabel("Subject").fill(subject);
  await mail.previewMail();
  await mail.sendButton().click();

  await expect(page).toHaveURL(/\/admin\/mail\?campaign=[0-9a-f-]{36}&sent=1#outbox/);
  await expect(
    page.getByRole("status").filter({ hasText: `“${subject}” went to the mail queue for 2 players` }),
  ).toBeVisible();
  await expect(page.getByRole("table", { name: "Campaigns sent, newest first" })).toContainText(subject);
  await expect(mail.outbox.getByLabel("Campaign")).toHaveValue(/[0-9a-f-]{36}/);
  const rows = mail.outboxRows();
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: ann.email })).toContainText(subject);
  await expect(rows.filter({ hasText: ben.email })).toHaveCount(1);
  await expect(rows.filter({ hasText: cat.email })).toHaveCount(0);
  // Delivery starts at once through the mail adapter; whatever older mail is ahead in the queue, each row
  // shows where it is.
  for (const row of await rows.all()) await expect(row).toContainText(/Queued|Sent/);

  const sent = (await mailCampaigns()).find((c) => c.subject === subject);
  expect(sent?.recipients).toBe(2);
});

test("bad input gets a message per field and queues nothing; an empty segment cannot be sent; axe light and dark", async ({
  page,
}) => {
  // Every field's refusal plus two axe scans: near 30 s on this machine even alone.
  test.slow();
  const t = tag();
  const empty = await createCompetition({ label: "mail-empty" });
  const mail = new AdminMailPage(page);
  await mail.goto();
  await expectAccessibleInBothSchemes(page);

  await mail.fill({ segment: "Entrants of a competition", subject: "Hi", body: "Too short" });
  await mail.previewMail();
  // Each message is tied to its field (its accessible description), and the field is marked invalid.
  const fieldErrors = {
    Competition: "Choose the competition",
    Subject: "Give a subject of 3 to 120 characters",
    Message: "Write a message of 20 to 5,000 characters",
  };
  for (const [label, message] of Object.entries(fieldErrors)) {
    const field = mail.compose.getByLabel(label, { exact: true });
    await expect(field).toHaveAccessibleDescription(new RegExp(message));
    await expect(field).toHaveAttribute("aria-invalid", "true");
  }
  await expect(mail.compose.getByLabel("Kind")).not.toHaveAttribute("aria-invalid");
  await expect(mail.compose.getByLabel("Message")).toHaveValue("Too short");
  await expect(mail.preview).toHaveCount(0);

  const subject = `Nobody gets this ${t}`;
  await mail.fill({
    kind: "Service notice",
    competition: empty.title,
    subject,
    body: "A competition nobody has entered yet.",
  });
  await mail.previewMail();
  await expect(mail.preview).toContainText("This service notice goes to 0 players");
  await expect(mail.preview).toContainText("Nobody in this segment may receive this mail now");
  await expect(mail.sendButton()).toHaveCount(0);
  await expectAccessibleInBothSchemes(page);
  expect((await mailCampaigns()).some((c) => c.subject === subject)).toBe(false);
});
