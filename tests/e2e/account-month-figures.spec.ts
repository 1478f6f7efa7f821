import { expireTopUp, openTopUp, payTopUp, signedInClient } from "./support/backend";
import { expectAccessibleInBothSchemes } from "./support/axe";
import { expect, test } from "./support/fixtures";
import { ResponsiblePlayPage } from "./support/pages/account";

// True monthly figures: a £25 checkout left open and a £25 one paid show £25 credited and,
// apart, £25 held while the open one may still be paid; once it expires nothing is held. The admin's user
// page says the same. Under a limit, what is left is shown for top-ups and for spending on entries apart. The money
// is worked out in SQL (private.month_credited, private.month_held, private.top_up_left, private.spend_left).

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
  await expect(play.value("Topped up this month")).toHaveText("£25.00");
  await expect(play.value("Checkouts in progress")).toHaveText(HELD);
  await expect(play.summary).not.toContainText("£50.00");
  // A limit under what went in: nothing left to top up, while all of it is still there to spend on entries.
  const limited = await (await signedInClient(player.email)).rpc("set_monthly_limit", { p_limit: 20 });
  if (limited.error) throw new Error(limited.error.message);
  await play.goto();
  await player.page.setViewportSize({ width: 390, height: 844 });
  await expect(play.value("Left to top up this month")).toHaveText("£0.00");
  await expect(play.value("Left to spend on entries this month")).toHaveText("£20.00");
  await expectAccessibleInBothSchemes(player.page, "the limit's figures on a phone");
  await player.page.setViewportSize({ width: 1280, height: 720 });

  await admin.goto(`/admin/users/${player.id}`);
  const fact = (term: string) =>
    admin.locator("dt", { hasText: new RegExp(`^${term}$`) }).locator("xpath=following-sibling::dd[1]");
  await expect(fact("Topped up this month")).toHaveText("£25.00");
  await expect(fact("Checkouts in progress")).toHaveText(HELD);

  await expireTopUp(abandoned);
  await play.goto();
  await expect(play.value("Topped up this month")).toHaveText("£25.00");
  await expect(play.value("Checkouts in progress")).toHaveText("None");
});
