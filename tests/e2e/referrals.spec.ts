import { expectAccessibleInBothSchemes } from "./support/axe";
import { overflowingBoxes } from "./support/overflow";
import { approveSignUp, balanceOf, buyAs, openTopUp, payTopUp } from "./support/backend";
import { expect, test } from "./support/fixtures";
import { SignUpPage } from "./support/pages/sign-up";
import { DEMO_PASSWORD, uniqueEmail } from "./support/users";

// Referral credit: a player shares or copies their invite link from the dashboard's "Invite friends" card; a friend
// opens it on a phone, reads who invited them and the credit beside the prizes open now, signs up with it, is approved
// and makes a first paid entry; both balances gain the referral credit (£2.50), once.

test.use({ competitionFields: { ticketPrice: 1 }, playerDetails: { name: "Ivy Inviter", credit: 10 } });

test("an invite link: shared from the dashboard, it names the inviter and the credit; the friend signs up with it, is approved and enters; both are credited once", async ({
  approvedPlayer: inviter,
  liveCompetition,
  browser,
}) => {
  const { page } = inviter;
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/account");
  const card = page.getByRole("region", { name: "Invite friends" });
  const link = await card.getByLabel("Your invite link").inputValue();
  expect(link).toMatch(/\/signup\?ref=[0-9A-HJKMNP-TV-Z]{10}$/);
  // This browser has no share sheet: copying is the way.
  await expect(card.getByRole("button", { name: "Share invite" })).toHaveCount(0);
  await card.getByRole("button", { name: "Copy link" }).click();
  await expect(card.getByRole("status").filter({ hasText: "Link copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await expect(card.getByTestId("referral-summary")).toHaveText("No friends have joined with your link yet.");
  await expectAccessibleInBothSchemes(page, "dashboard with the invite card");

  // A device with a share sheet (navigator.share, recorded here as the sheet would receive it) offers it first.
  await page.addInitScript(() => {
    Object.defineProperty(navigator, "share", {
      value: async (data: ShareData) => {
        (window as unknown as { shared: ShareData }).shared = data;
      },
    });
  });
  await page.reload();
  await card.getByRole("button", { name: "Share invite" }).click();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { shared?: ShareData }).shared))
    .toEqual({
      title: "LabCash",
      text: "Join me on LabCash: sign up with my link and we each get £2.50 credit after your first paid entry.",
      url: link,
    });

  // On a phone the card fits its screen.
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await overflowingBoxes(page)).toEqual([]);
  await expectAccessibleInBothSchemes(page, "dashboard with the invite card on a phone");

  // The friend, on a phone of their own, opens the link: who invited them, the credit, the prizes open now.
  const friendContext = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const friendPage = await friendContext.newPage();
  const path = new URL(link).pathname + new URL(link).search;
  await friendPage.goto(path);
  await expect(friendPage.getByRole("heading", { level: 1, name: "Ivy invited you to LabCash" })).toBeVisible();
  await expect(friendPage.getByRole("main")).toContainText(
    "Join with Ivy’s invite and you each get £2.50 credit, once our team has approved your account and you make your first paid entry.",
  );
  const prizes = friendPage.getByRole("region", { name: "Prizes you can win now" }).getByRole("link");
  await expect(prizes.first()).toHaveAttribute("href", /^\/competitions\/[^/]+$/);
  expect(await prizes.count()).toBeLessThanOrEqual(3);
  // The link's preview card says the offer.
  const preview =
    "Join LabCash with Ivy’s invite and you each get £2.50 credit after your first paid entry. See the prizes you can win now.";
  await expect(friendPage.locator('meta[property="og:title"]')).toHaveAttribute(
    "content",
    "Ivy invited you to LabCash",
  );
  await expect(friendPage.locator('meta[property="og:description"]')).toHaveAttribute("content", preview);
  await expect(friendPage.locator('meta[name="twitter:title"]')).toHaveAttribute(
    "content",
    "Ivy invited you to LabCash",
  );
  await expect(friendPage.locator('meta[name="twitter:description"]')).toHaveAttribute("content", preview);
  // With the site's picture: the card shows an image, and it is there to fetch.
  const image = friendPage.locator('meta[property="og:image"]');
  await expect(image).toHaveAttribute("content", /\/opengraph-image\b/);
  await expect(friendPage.locator('meta[name="twitter:image"]')).toHaveAttribute("content", /\/opengraph-image\b/);
  const picture = await friendPage.request.get((await image.getAttribute("content"))!);
  expect([picture.status(), picture.headers()["content-type"]]).toEqual([200, "image/png"]);
  await expectAccessibleInBothSchemes(friendPage, "the invite link's page on a phone");
  expect(await overflowingBoxes(friendPage)).toEqual([]);
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
  await expect(card.getByTestId("referral-summary")).toHaveText(
    "1 friend has joined with your link; 1 credited, £2.50 to you in all.",
  );
  await friendContext.close();
});
