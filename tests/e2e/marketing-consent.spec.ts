import { randomUUID } from "node:crypto";
import { expectAccessibleInBothSchemes } from "./support/axe";
import {
  approveSignUp,
  buyAs,
  caughtAppMail,
  createCompetition,
  createUser,
  marketingConsentOf,
  sendMarketingToEntrants,
  setMarketingConsent,
  serviceClient,
} from "./support/backend";
import { expect, test } from "./support/fixtures";
import { ProfilePage } from "./support/pages/account";
import { AdminMailPage } from "./support/pages/admin-mail";
import { SignUpPage } from "./support/pages/sign-up";
import { DEMO_PASSWORD, uniqueEmail } from "./support/users";

// Marketing consent (PECR, code of practice 1.11): the sign-up box is unticked and nothing is
// assumed; the profile shows the choice and changes it in one click; an admin's marketing preview leaves out
// whoever did not agree; every marketing mail's own link unsubscribes without signing in, once, and its
// List-Unsubscribe address takes the RFC 8058 one-click POST.

const tag = () => `${Date.now().toString(36)}${randomUUID().slice(0, 4)}`;
// The password the backend helpers sign in with (buyAs), so a player who signed up through the form can buy.
const PASSWORD = DEMO_PASSWORD;

test("signing up without ticking the box: not consented, and an admin's marketing preview leaves them out", async ({
  page,
  admin,
}) => {
  const t = tag();
  const email = uniqueEmail("no-consent");
  const signUp = new SignUpPage(page);
  await signUp.goto();
  await expect(signUp.marketingConsent).not.toBeChecked();
  await signUp.signUp({ name: `Nora Noconsent${t}`, email, password: PASSWORD, dateOfBirth: "1991-03-03" });
  await expect(page).toHaveURL(/\/pending-approval$/);
  const nora = await approveSignUp(email, `Nora Noconsent${t}`, PASSWORD);

  const profile = new ProfilePage(page);
  await profile.goto();
  await expect(profile.marketingChoice).toHaveText(
    /^Not consented: we send you no marketing e-mails\. Chosen when you signed up/,
  );
  await expect(profile.giveMarketing).toBeVisible();

  // Nora and a player who agreed both enter; the marketing preview counts only the one who agreed.
  const competition = await createCompetition({ label: "consent" });
  const keen = await createUser({ name: `Kit Keen${t}`, credit: 5, label: "consent" });
  await setMarketingConsent(keen, true);
  expect((await serviceClient().rpc("add_credits", { user_id: nora.id, amount: 5 })).error).toBeNull();
  for (const player of [nora, keen]) await buyAs(player, competition.id, 1);

  const mail = new AdminMailPage(admin);
  await mail.goto();
  await mail.fill({
    kind: "Marketing",
    segment: "Entrants of a competition",
    competition: competition.title,
    subject: `News ${t}`,
    body: "Three new competitions open on Friday. Good luck!",
  });
  await mail.previewMail();
  await expect(mail.preview).toContainText(`This marketing goes to 1 player: Entrants of ${competition.title}`);
  await expect(mail.preview).toContainText("1 player in the segment will not get it: 1 did not agree to marketing");
  await mail.sendButton().click();
  await expect(admin).toHaveURL(/\/admin\/mail\?campaign=[0-9a-f-]{36}&sent=1#outbox/);
  const rows = mail.outboxRows();
  await expect(rows).toHaveCount(1);
  await expect(rows.filter({ hasText: keen.email })).toHaveCount(1);
  expect((await caughtAppMail(nora.email)).filter((m) => m.kind === "marketing")).toEqual([]);

  // The admin's user page says the same.
  await admin.goto(`/admin/users/${nora.id}`);
  await expect(
    admin.locator("dt", { hasText: /^Marketing e-mail$/ }).locator("xpath=following-sibling::dd[1]"),
  ).toHaveText("Not consented");
});

test("ticking the box at sign-up consents; the profile withdraws and gives it again in one click each", async ({
  page,
}) => {
  const email = uniqueEmail("consent");
  const signUp = new SignUpPage(page);
  await signUp.goto();
  await signUp.signUp({
    name: "Tess Ticked",
    email,
    password: PASSWORD,
    dateOfBirth: "1992-02-02",
    marketingConsent: true,
  });
  await expect(page).toHaveURL(/\/pending-approval$/);

  const profile = new ProfilePage(page);
  await profile.goto();
  await expect(profile.marketingChoice).toHaveText(
    /^Consented: you chose “E-mail me about new competitions and results”\. Chosen when you signed up/,
  );
  await expectAccessibleInBothSchemes(page);

  await profile.stopMarketing.click();
  await expect(profile.status).toHaveText(
    "Saved: we will not send you marketing e-mails. Mail about your account and entries still comes.",
  );
  await expect(profile.marketingChoice).toHaveText(/^Not consented: .* Chosen on this page/);
  await profile.giveMarketing.click();
  await expect(profile.marketingChoice).toHaveText(/^Consented: .* Chosen on this page/);

  // The notification preference is its own choice, on for a new account; turning it off leaves marketing alone.
  await expect(profile.emailNotifications).toBeChecked();
  await profile.emailNotifications.uncheck();
  await profile.saveEmailNotifications.click();
  await expect(
    page.getByRole("main").getByRole("status").filter({ hasText: "show your instant wins here only" }),
  ).toBeVisible();
  await page.reload();
  await expect(profile.emailNotifications).not.toBeChecked();
  await expect(profile.marketingChoice).toHaveText(/^Consented: .* Chosen on this page/);
});

test("the unsubscribe link in a marketing mail works signed out, once; the one-click POST works too", async ({
  page,
  request,
}) => {
  const t = tag();
  const competition = await createCompetition({ label: "unsubscribe" });
  const player = await createUser({ name: `Uma Unsub${t}`, credit: 5, label: "unsubscribe" });
  await setMarketingConsent(player, true);
  await buyAs(player, competition.id, 1);

  // A mail program's one-click unsubscribe: a POST to the List-Unsubscribe address, no cookies.
  await sendMarketingToEntrants(competition.id, `First news ${t}`);
  const [first] = (await caughtAppMail(player.email)).filter((m) => m.subject === `First news ${t}`);
  expect(first.body_text).toContain("Unsubscribe in one click, no sign-in needed:");
  const oneClick = new URL(first.list_unsubscribe!);
  expect(oneClick.pathname).toBe("/api/unsubscribe");
  const posted = await request.post(oneClick.pathname + oneClick.search, {
    form: { "List-Unsubscribe": "One-Click" },
    headers: { Origin: "https://mail.example" },
  });
  expect(posted.status()).toBe(200);
  expect(await marketingConsentOf(player)).toMatchObject({ given: false, source: "unsubscribe_link" });

  // A person follows the link in the text, signed out: opening it changes nothing, the button does.
  await setMarketingConsent(player, true);
  await sendMarketingToEntrants(competition.id, `Second news ${t}`);
  const [second] = (await caughtAppMail(player.email)).filter((m) => m.subject === `Second news ${t}`);
  const link = new URL(/https?:\/\/\S+\/unsubscribe\?token=[0-9a-f]{64}/.exec(second.body_text)![0]);
  await page.goto(link.pathname + link.search);
  await expect(page.getByRole("heading", { name: "Unsubscribe from marketing e-mails" })).toBeVisible();
  expect((await marketingConsentOf(player)).given).toBe(true);
  await page.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText(
    "You are unsubscribed: we will send you no more marketing e-mails.",
  );
  expect(await marketingConsentOf(player)).toMatchObject({ given: false, source: "unsubscribe_link" });

  // Once: the same link again is refused, and a made-up one too.
  await page.goto(link.pathname + link.search);
  await page.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toContainText("This unsubscribe link has already been used");
  await page.goto(`/unsubscribe?token=${"0".repeat(64)}`);
  await page.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toContainText("This unsubscribe link is not valid");
  await expectAccessibleInBothSchemes(page);
});
