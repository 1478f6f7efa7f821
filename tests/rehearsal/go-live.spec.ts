import { expect, test, type Browser, type Page } from "@playwright/test";
import { EMBEDDED_SECRET_KEY } from "@labcash/embedded-supabase/keys";
import { E2E_BACKEND_PORT } from "../../scripts/e2e-ports.mjs";
import { caughtMail } from "../e2e/support/backend";
import { png } from "../e2e/support/images";
import { ApprovalsPage } from "../e2e/support/pages/admin";
import { CompetitionFormPage, ukDateTimeLocal } from "../e2e/support/pages/admin-competitions";
import { CompetitionPage } from "../e2e/support/pages/competition";
import { BuyCreditPage } from "../e2e/support/pages/credit";
import { SignUpPage } from "../e2e/support/pages/sign-up";
import { TwoStepPage } from "../e2e/support/pages/two-step";

// The go-live rehearsal's one pass (scripts/rehearsal.mjs has started a production build on a new project with no
// demo data and run the README's go-live steps, which invited REHEARSAL_ADMIN_EMAIL): the first operator and the
// first player, end to end, as on a real site's first day. One test: each step needs the one before.

const adminEmail = process.env.REHEARSAL_ADMIN_EMAIL!;
const cronSecret = process.env.REHEARSAL_CRON_SECRET!;
const DAY = 86_400_000;

async function newPage(browser: Browser, visitor: string): Promise<Page> {
  // Each person is their own visitor to the per-visitor limits, as behind a real proxy.
  const context = await browser.newContext({ extraHTTPHeaders: { "x-forwarded-for": visitor } });
  return context.newPage();
}

test("the invited operator opens the site, publishes a competition, and a new player enters and wins its draw", async ({
  browser,
}) => {
  // 1. The invitation `npm run setup:admin` sent: a password, then two-step on the first visit to the console.
  const admin = await newPage(browser, "203.0.113.10");
  const invitation = (await caughtMail(adminEmail)).find((m) => m.kind === "invite");
  const link = /https?:\/\/\S+\/auth\/confirm\?\S+/.exec(invitation?.body ?? "");
  expect(link, "the invitation carries a link to the site's /auth/confirm").not.toBeNull();
  await admin.goto(link![0]);
  await expect(admin).toHaveURL(/\/auth\/set-password$/);
  const adminMain = admin.getByRole("main");
  await adminMain.getByLabel("New password", { exact: true }).fill("Operator-pass-42");
  await adminMain.getByRole("button", { name: "Set password" }).click();
  await expect(adminMain.getByRole("status")).toHaveText("Your password has been changed.");
  await adminMain.getByRole("link", { name: "go to the admin console" }).click();
  await expect(admin).toHaveURL(/\/account\/two-step\?next=%2Fadmin$/);
  await new TwoStepPage(admin).setUpAuthenticator(adminEmail);
  await expect(admin).toHaveURL(/\/admin$/);

  // 2. The go-live check on /admin/system says what `npm run check:production` said: ready (test payments warned of).
  await admin.goto("/admin/system");
  await admin.getByRole("link", { name: "Run the go-live check" }).click();
  await expect(admin.getByRole("status").filter({ hasText: /^Ready, with warnings/ })).toBeVisible();
  await expect(admin.getByRole("row").filter({ hasText: "Wrong" })).toHaveCount(0);

  // 3. A competition with a picture, published.
  const slug = `rehearsal-${Date.now().toString(36)}`;
  const title = `Opening day ${slug}`;
  await admin.goto("/admin/competitions/new");
  const form = new CompetitionFormPage(admin);
  await form.fill({
    title,
    slug,
    prizeDescription: "The first prize",
    prizeValue: "100",
    ticketPrice: "1.00",
    totalTickets: "100",
    perPerson: "10",
    closesAt: ukDateTimeLocal(7 * DAY),
  });
  await form.chooseImages.setInputFiles({ name: "prize.png", mimeType: "image/png", buffer: png(1200, 800) });
  await expect(admin.getByRole("status").filter({ hasText: "1 image added." })).toBeVisible();
  await form.save();
  await expect(admin).toHaveURL(/\/admin\/competitions\/[0-9a-f-]{36}(\?saved=created)?$/);
  const competitionId = /competitions\/([0-9a-f-]{36})/.exec(admin.url())![1];
  await admin.getByRole("button", { name: "Publish…" }).click();
  await admin
    .getByRole("dialog", { name: `Publish ${title}?` })
    .getByRole("button", { name: "Publish for good" })
    .click();
  await expect(admin.getByRole("status").filter({ hasText: `Published: ${title} is live.` })).toBeVisible();

  // 4. A player signs up and waits for approval; the operator approves them.
  const player = await newPage(browser, "203.0.113.20");
  const playerName = "Fiona First";
  await new SignUpPage(player).goto();
  await new SignUpPage(player).signUp({
    name: playerName,
    email: "first-player@labcash.test",
    password: "First-player-42",
    dateOfBirth: "1990-04-01",
  });
  await expect(player).toHaveURL(/\/pending-approval$/);
  const approvals = new ApprovalsPage(admin);
  await approvals.goto();
  await approvals.approve(playerName);
  await expect(approvals.status).toHaveText(`Approved ${playerName}. We have e-mailed them.`);

  // 5. The player tops up through the test checkout (PAYMENTS=test) and buys a ticket.
  const credit = new BuyCreditPage(player);
  await credit.goto();
  await credit.checkout("10", "£10.00");
  await player.getByRole("button", { name: "Pay by debit card" }).click();
  await expect(player.getByText("Payment received: £10.00 credit added")).toBeVisible();
  const competition = new CompetitionPage(player);
  await competition.goto({ path: `/competitions/${slug}` });
  await expect(player.getByRole("img", { name: title }).first()).toBeVisible();
  await competition.entry.buy(1, null);
  await expect(competition.entry.result).toContainText(/Your ticket number: #\d+/);

  // 6. Its draw time comes (moved to now, rather than waited for) and the cron route, called with the cron secret as
  // Vercel Cron calls it, draws it: the one ticket wins.
  const moved = await fetch(`http://127.0.0.1:${E2E_BACKEND_PORT}/_embedded/test/competition-due`, {
    method: "POST",
    headers: { apikey: EMBEDDED_SECRET_KEY, "content-type": "application/json" },
    body: JSON.stringify({ competition_id: competitionId, until: "draw" }),
  });
  expect(moved.status).toBe(200);
  const refused = await player.request.get("/api/cron/draws");
  expect(refused.status(), "the cron route refuses a call without the secret").toBe(401);
  const run = await player.request.get("/api/cron/draws", { headers: { authorization: `Bearer ${cronSecret}` } });
  expect(run.status()).toBe(200);
  expect(((await run.json()) as { drawn: { competition_id: string }[] }).drawn).toContainEqual(
    expect.objectContaining({ competition_id: competitionId }),
  );
  await competition.goto({ path: `/competitions/${slug}` });
  await expect(competition.winnerName).toBeVisible();
  await expect(competition.winningTicket).toContainText("#");
});
