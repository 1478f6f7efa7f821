import { expireTopUp, openTopUp, payTopUp } from "./support/backend";
import { expect, test } from "./support/fixtures";
import { ResponsiblePlayPage } from "./support/pages/account";

// True monthly figures: a £25 checkout left open and a £25 one paid show £25 credited and,
// apart, £25 held while the open one may still be paid; once it expires nothing is held. The admin's user
// page says the same. The money is worked out in SQL (private.month_credited, private.month_held).

const HELD = "£25.00 held while a checkout is open, released if it is not paid";

test("Responsible play and the admin user page show money credited and checkouts in progress apart", async ({
  approvedPlayer: player,
  admin,
}) => {
  const abandoned = await openTopUp(player, 25);
  const paid = await openTopUp(player, 25);
  await payTopUp(paid, 25);

  const play = new ResponsiblePlayPage(player.page);
  await play.goto();
  await expect(play.value("Credited this month")).toHaveText("£25.00");
  await expect(play.value("Checkouts in progress")).toHaveText(HELD);
  await expect(play.summary).not.toContainText("£50.00");

  await admin.goto(`/admin/users/${player.id}`);
  const fact = (term: string) =>
    admin.locator("dt", { hasText: new RegExp(`^${term}$`) }).locator("xpath=following-sibling::dd[1]");
  await expect(fact("Credited this month")).toHaveText("£25.00");
  await expect(fact("Checkouts in progress")).toHaveText(HELD);

  await expireTopUp(abandoned);
  await play.goto();
  await expect(play.value("Credited this month")).toHaveText("£25.00");
  await expect(play.value("Checkouts in progress")).toHaveText("None");
});
