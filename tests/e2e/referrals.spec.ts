import { expectAccessibleInBothSchemes } from "./support/axe";
import { approveSignUp, balanceOf, buyAs, openTopUp, payTopUp } from "./support/backend";
import { expect, test } from "./support/fixtures";
import { SignUpPage } from "./support/pages/sign-up";
import { DEMO_PASSWORD, uniqueEmail } from "./support/users";

// Referral credit: a player copies their invite link from the profile; a friend signs up with
// it, is approved and makes a first paid entry; both balances gain the referral credit (£2.50), once.

test.use({ competitionFields: { ticketPrice: 1 }, playerDetails: { name: "Ivy Inviter", credit: 10 } });

test("an invite link: the friend signs up with it, is approved and enters; both are credited once", async ({
  approvedPlayer: inviter,
  liveCompetition,
  browser,
}) => {
  const { page } = inviter;
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/account/profile");
  const link = await page.getByLabel("Your invite link").inputValue();
  expect(link).toMatch(/\/signup\?ref=[0-9A-HJKMNP-TV-Z]{10}$/);
  await page.getByRole("button", { name: "Copy link" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Link copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await expect(page.getByTestId("referral-summary")).toHaveText("No friends have joined with your link yet.");
  await expectAccessibleInBothSchemes(page, "profile with the invite link");

  // The friend, in a browser of their own, opens the link.
  const friendContext = await browser.newContext();
  const friendPage = await friendContext.newPage();
  await friendPage.goto(new URL(link).pathname + new URL(link).search);
  const code = new URL(link).searchParams.get("ref")!;
  await expect(friendPage.getByLabel("Invite code (optional)")).toHaveValue(code);
  const email = uniqueEmail("invited");
  await new SignUpPage(friendPage).signUp({
    name: "Fran Friend",
    email,
    password: DEMO_PASSWORD,
    dateOfBirth: "1992-02-02",
  });
  await expect(friendPage).toHaveURL(/\/pending-approval$/);
  const friend = await approveSignUp(email, "Fran Friend", DEMO_PASSWORD);
  expect(await balanceOf(inviter.id)).toBe(10);

  await payTopUp(await openTopUp(friend, 10), 10);
  await buyAs(friend, liveCompetition.id, 1);
  await buyAs(friend, liveCompetition.id, 1);
  expect(await balanceOf(inviter.id)).toBe(12.5);
  expect(await balanceOf(friend.id)).toBe(10.5);

  await page.reload();
  await expect(page.getByTestId("referral-summary")).toHaveText(
    "1 friend has joined with your link; 1 credited, £2.50 to you in all.",
  );
  await friendContext.close();
});
