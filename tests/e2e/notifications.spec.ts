import { expectAccessibleInBothSchemes } from "./support/axe";
import { buyAs, createCompetition, drawNow } from "./support/backend";
import { gotoUntilVisible } from "./support/cached-pages";
import { expect, test } from "./support/fixtures";
import { CompetitionPage } from "./support/pages/competition";
import { Header } from "./support/pages/header";
import { NotificationsPage, TicketCheck } from "./support/pages/notifications";

// Notifications: the bell counts what a draw told its entrants, the centre links to the draw's
// verification page and marks read; "Did I win?" answers anyone for a ticket number. Web push itself is covered by
// tests/contract/web-push.test.ts (service workers are blocked here).

test.use({ playerDetails: { name: "Nell Notified", credit: 10 } });

test("after a draw the bell counts the result, which links to the draw; marking all read clears the count", async ({
  approvedPlayer: { page, ...player },
}) => {
  const competition = await createCompetition({ label: "notify", question: null });
  await buyAs(player, competition.id, 2, null);
  const header = new Header(page);

  // Approval is the one notification so far; the bell shows on a cached public page too.
  await page.goto("/");
  await expect(header.bell()).toHaveAccessibleName("Notifications, 1 unread");

  const { status, draw } = await drawNow(competition);
  expect(status).toBe("drawn");
  await page.goto("/competitions");
  await expect(header.bell()).toHaveAccessibleName("Notifications, 2 unread");

  await header.bell().click();
  const centre = new NotificationsPage(page);
  await expect(centre.heading).toBeVisible();
  await expect(centre.unreadCount).toHaveText("2 unread notifications");
  const result = centre.notification(`You won: ${competition.title}`);
  await expect(result).toContainText(`Your ticket #${draw!.winning_number} won.`);
  await expect(result.getByText("Unread", { exact: true })).toBeVisible();
  // The kinds a player chooses for push are kept (this browser cannot take push: service workers are blocked).
  await centre.pushKinds.getByLabel("You won a draw").check();
  await centre.savePushChoices.click();
  await expect(page.getByText("Push choices saved")).toBeVisible();
  await expectAccessibleInBothSchemes(page);

  await result.getByRole("link", { name: `You won: ${competition.title}` }).click();
  await expect(page).toHaveURL(new RegExp(`/winners/${draw!.id}$`));
  await expect(page.getByRole("heading", { level: 1, name: `Verify the draw: ${competition.title}` })).toBeVisible();

  await centre.goto();
  await expect(centre.pushKinds.getByLabel("You won a draw")).toBeChecked();
  await centre.markAllRead.click();
  await expect(centre.unreadCount).toHaveText("0 unread notifications");
  await expect(result.getByText("Unread", { exact: true })).toHaveCount(0);
  await expect(header.bell()).toHaveAccessibleName("Notifications");
});

test("Did I win? answers for a player's ticket and for one that does not exist, on /winners and the competition", async ({
  approvedPlayer: { page, ...player },
}) => {
  const competition = await createCompetition({ label: "did-i-win", question: null });
  const { ticket_numbers: mine } = await buyAs(player, competition.id, 2, null);
  const { draw } = await drawNow(competition);
  const lost = mine.find((n) => n !== draw!.winning_number)!;

  const winners = new TicketCheck(page);
  await gotoUntilVisible(page, "/winners", page.getByRole("article", { name: competition.title }));
  await expect(new Header(page).themeToggle()).toBeEnabled(); // hydrated: the answer comes in place
  await winners.competition.selectOption({ label: competition.title });
  await winners.check(`#${lost}`);
  await expect(winners.answer).toHaveText(
    `Ticket #${lost} did not win ${competition.title}: ticket #${draw!.winning_number} did. Verify the draw`,
  );
  await winners.check("51");
  await expect(winners.answer).toHaveText(
    `There is no ticket #51 in ${competition.title}. Check the number on your receipt.`,
  );
  await winners.check("twelve");
  await expect(winners.number).toHaveAccessibleDescription("Enter the ticket number in figures, for example 42");
  await expect(winners.answer).toHaveText("");

  await new CompetitionPage(page).goto(competition);
  const onPage = new TicketCheck(page);
  await onPage.check(String(draw!.winning_number));
  await expect(onPage.answer).toHaveText(`Ticket #${draw!.winning_number} won ${competition.title}. Verify the draw`);
  await onPage.answer.getByRole("link", { name: "Verify the draw" }).click();
  await expect(page).toHaveURL(new RegExp(`/winners/${draw!.id}$`));
});
