import { randomUUID } from "node:crypto";
import { expectAccessibleInBothSchemes } from "./support/axe";
import { buyAs, createCompetition, createUser, setMonthlyLimitAs } from "./support/backend";
import { expect, test } from "./support/fixtures";
import { AdminProtectionPage, PlayerProtectionRecord } from "./support/pages/admin-protection";

// Player protection (code of practice 1.6, 1.7): a flag raised by SQL reviewed from the queue,
// an intervention that restricts play (and lifting it), axe in light and dark. Each test makes its own players.

const tag = () => `Prot${Date.now().toString(36)}${randomUUID().slice(0, 4)}`;

/** A player who has spent their whole monthly limit (£3) on tickets: SQL flags them when the queue is read. */
async function playerAtLimit() {
  const player = await createUser({ name: `${tag()} Limit`, credit: 5, label: "protect" });
  await setMonthlyLimitAs(player, 3);
  const competition = await createCompetition({ label: "protect", ticketPrice: 1 });
  await buyAs(player, competition.id, 3);
  return player;
}

test("an admin reviews a flag from the queue with a note; it moves to reviewed and shows on the player's page", async ({
  admin,
}) => {
  const player = await playerAtLimit();
  const queue = new AdminProtectionPage(admin);
  await queue.goto();
  const form = queue.reviewForm(player.name, "Monthly limit reached");
  await expect(form).toBeVisible();
  await expect(admin.getByRole("listitem").filter({ has: form })).toContainText("Limit £3.00");

  // A note is required.
  await form.getByRole("button", { name: "Mark reviewed" }).click();
  await expect(form.getByLabel("Review note")).toHaveAccessibleDescription(/Write a note of 3 to 2000 characters/);

  const note = "Phoned them: happy with the limit, no further action.";
  await queue.review(player.name, "Monthly limit reached", note, "Contacted the player");
  await expect(form).toHaveCount(0);
  const row = queue.reviewed.getByRole("row").filter({ hasText: player.name });
  await expect(row).toContainText(note);
  await expect(row).toContainText("Contacted the player");

  await row.getByRole("link", { name: player.name }).click();
  const record = new PlayerProtectionRecord(admin);
  await expect(record.flags).toContainText("Monthly limit reached");
  await expect(record.flags).toContainText("Reviewed");
  await expect(record.flags).toContainText(note);
  await expect(record.interventions).toContainText("Contacted the player");
});

test("a 'restricted' intervention refuses the player's top-ups and entries until it is lifted", async ({
  admin,
  approvedPlayer: { page, ...player },
}) => {
  const record = new PlayerProtectionRecord(admin);
  await record.goto(player.id);
  // The note is required; nothing is recorded without it.
  await record.record("Restricted play", "");
  await expect(record.form.getByLabel("Note")).toHaveAccessibleDescription(/Write a note of 3 to 2000 characters/);
  await expect(admin.getByText("Play is restricted since")).toHaveCount(0);

  await record.record("Restricted play", "Large deposits; restricted until we have spoken to them.");
  await expect(record.form.getByRole("status")).toContainText("Recorded: restricted play");
  await expect(admin.getByText("Play is restricted since")).toBeVisible();
  await expect(record.interventions).toContainText("Restricted play");

  await page.goto("/credit");
  await expect(page.getByText("Your account is restricted: please contact us")).toBeVisible();
  const competition = await createCompetition({ label: "restricted" });
  await expect(buyAs(player, competition.id, 1)).rejects.toThrow("Your account is restricted: please contact us");

  await record.record("Lifted the restriction", "Spoke to them; play can resume.");
  await expect(admin.getByText("Play is restricted since")).toHaveCount(0);
  await page.reload();
  await expect(page.getByText("Your account is restricted: please contact us")).toHaveCount(0);
  expect((await buyAs(player, competition.id, 1)).ticket_numbers).toHaveLength(1);

  // Closing is permanent, so it needs a tick too.
  await record.record("Closed the account", "They asked us by phone to close the account.");
  const confirm = record.form.getByLabel("I confirm: close this account for good");
  await expect(confirm).toHaveAccessibleDescription("Tick to confirm: closing the account cannot be undone");
  await expect(record.interventions).not.toContainText("Closed the account");
  await confirm.check();
  await record.form.getByRole("button", { name: "Record intervention" }).click();
  await expect(record.interventions).toContainText("Closed the account");
  await page.reload();
  await expect(page.getByText("Your account is closed")).toBeVisible();
});

test("the protection screens have no axe violations in light and dark mode", async ({ admin }) => {
  test.slow();
  const player = await playerAtLimit();
  for (const path of ["/admin/protection", `/admin/users/${player.id}`, "/admin"]) {
    await admin.goto(path);
    await expect(admin.getByRole("heading", { level: 1 })).toBeVisible();
    await expectAccessibleInBothSchemes(admin, path);
  }
  await expect(admin.locator("dt", { hasText: "Flagged for review" })).toBeVisible();
});
