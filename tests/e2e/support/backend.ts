import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Cookie } from "@playwright/test";
import { createServerClient } from "@supabase/ssr";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { EMBEDDED_PUBLISHABLE_KEY, EMBEDDED_SECRET_KEY } from "@labcash/embedded-supabase/keys";
import { EMBEDDED_CRON_SECRET } from "../../../lib/env";
import { totpCode } from "@labcash/embedded-supabase/totp";
import { DEMO_PASSWORD, demoUsers, twoStepKeyPath, uniqueEmail } from "./users";

// Direct access to the e2e backend (the embedded server Playwright's web server starts), for
// fixtures that set up what a test needs: its own users, credit and competitions. Tests share
// one database with the other workers running in parallel, so everything made here is unique per test.

const backendUrl = `http://127.0.0.1:${process.env.E2E_BACKEND_PORT ?? 54329}`;
const options = {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
};

/** The secret-key client: service_role (auth admin API, add_credits). */
export const serviceClient = () => createClient(backendUrl, EMBEDDED_SECRET_KEY, options);

/** A client signed in with a password, as the browser's user would be. */
export async function signedInClient(email: string, password = DEMO_PASSWORD): Promise<SupabaseClient> {
  const client = createClient(backendUrl, EMBEDDED_PUBLISHABLE_KEY, options);
  const { error } = await client.auth.signInWithPassword({ email, password });
  if (error) throw new Error(`sign in as ${email}: ${error.message}`);
  return client;
}

/**
 * The session cookies the site sets when `email` signs in with a password, made through the API as
 * @supabase/ssr makes them (Cal.com's `apiLogin`): a fixture adds them to a browser context instead of
 * driving the sign-in form. The form itself is tested in auth.spec.ts and two-step.spec.ts.
 */
export async function sessionCookies(email: string, password = DEMO_PASSWORD): Promise<Cookie[]> {
  const jar = new Map<string, string>();
  const client = createServerClient(backendUrl, EMBEDDED_PUBLISHABLE_KEY, {
    cookies: {
      getAll: () => [...jar].map(([name, value]) => ({ name, value })),
      setAll(cookies) {
        for (const { name, value } of cookies) {
          if (value) jar.set(name, value);
          else jar.delete(name);
        }
      },
    },
  });
  const { error } = await client.auth.signInWithPassword({ email, password });
  if (error) throw new Error(`sign in as ${email}: ${error.message}`);
  if (!jar.size) throw new Error(`signing in as ${email} set no session cookie`);
  // The site's own attributes (lib/supabase/cookie-options.ts over http): 400 days, path /, Lax.
  const expires = Math.floor(Date.now() / 1000) + 400 * 86_400;
  return [...jar].map(([name, value]) => ({
    name,
    value,
    domain: "127.0.0.1",
    path: "/",
    expires,
    httpOnly: false,
    secure: false,
    sameSite: "Lax",
  }));
}

/**
 * A demo admin signed in at aal2: the password, then the code from the authenticator app that
 * auth.setup.ts set up. When another worker gives its code at the same moment, GoTrue ends this
 * worker's password-only session (it ends a user's aal1 sessions once one reaches aal2): sign in again.
 */
async function signedInAdmin(user: "admin" | "superAdmin"): Promise<SupabaseClient> {
  const key = (await readFile(twoStepKeyPath(user), "utf8")).trim();
  for (let attempt = 1; ; attempt++) {
    const client = await signedInClient(demoUsers[user].email);
    const { data: factors, error: listError } = await client.auth.mfa.listFactors();
    const factorId = factors?.totp[0]?.id;
    if (!listError && !factorId) throw new Error(`${user} has no authenticator set up`);
    const { error } = listError
      ? { error: listError }
      : await client.auth.mfa.challengeAndVerify({ factorId: factorId!, code: totpCode(key) });
    if (!error) return client;
    if (attempt === 3) throw new Error(`two-step verification as ${user}: ${error.message}`);
  }
}

let admin: Promise<SupabaseClient> | undefined;
/** The demo admin: the admin RPCs check the caller's role and aal2, which the secret key does not have. */
export const adminClient = () => (admin ??= signedInAdmin("admin"));

let superAdmin: Promise<SupabaseClient> | undefined;
/** The demo super admin (changing roles), signed in the same way. */
export const superAdminClient = () => (superAdmin ??= signedInAdmin("superAdmin"));

async function rpc<T>(client: SupabaseClient, fn: string, args: Record<string, unknown> = {}): Promise<T> {
  const { data, error } = await client.rpc(fn, args);
  if (error) throw new Error(`${fn}: ${error.message}`);
  if (CHANGES_PUBLIC_PAGES.has(fn)) await revalidatePublicPages();
  return data as T;
}

// The public competition pages are cached for a few seconds. These calls change what they show
// behind the app's back, so they tell the app as a database webhook would (POST /api/cron/revalidate),
// and a test sees the change on its next page load.
const CHANGES_PUBLIC_PAGES = new Set([
  "admin_publish_competition",
  "admin_update_competition",
  "admin_cancel_competition",
  "enter_competition",
  "admin_record_postal_entry",
  "run_due_draws",
  "admin_set_launch_at",
  "admin_update_settings",
  "admin_record_charity_donation",
]);

async function revalidatePublicPages() {
  const response = await fetch(`http://127.0.0.1:${process.env.E2E_PORT ?? 3100}/api/cron/revalidate`, {
    method: "POST",
    headers: { authorization: `Bearer ${EMBEDDED_CRON_SECRET}` },
  });
  if (!response.ok) throw new Error(`revalidating the public pages: ${response.status}`);
}

export type TestUser = { id: string; email: string; name: string; password: string };

/** Makes `user` an admin, as a super admin does on the user's page. */
export async function promoteToAdmin(user: TestUser): Promise<void> {
  await rpc(await superAdminClient(), "admin_set_user_role", { p_user_id: user.id, p_role: "admin" });
}

/** A new account (confirmed), approved by the admin unless asked otherwise, with `credit` pounds added. */
export async function createUser(opts: {
  name: string;
  credit?: number;
  approved?: boolean;
  label?: string;
}): Promise<TestUser> {
  const email = uniqueEmail(opts.label ?? "entrant");
  const service = serviceClient();
  const { data, error } = await service.auth.admin.createUser({
    email,
    password: DEMO_PASSWORD,
    email_confirm: true,
    user_metadata: { name: opts.name, date_of_birth: "1990-05-17" },
  });
  if (error || !data.user) throw new Error(`create user: ${error?.message}`);
  const id = data.user.id;
  if (opts.approved !== false) await rpc(await adminClient(), "admin_approve_user", { p_user_id: id });
  if (opts.credit) await rpc(service, "add_credits", { user_id: id, amount: opts.credit });
  return { id, email, name: opts.name, password: DEMO_PASSWORD };
}

export type TestCompetition = {
  id: string;
  slug: string;
  title: string;
  path: string;
  seed_commitment: string;
  /** The close (online sales end), ISO. */
  closes_at: string;
};

let counter = 0;
/** A unique slug and title for this test. */
function uniqueName(label: string) {
  const suffix = `${Date.now().toString(36)}${process.pid.toString(36)}${(counter++).toString(36)}`;
  return { slug: `e2e-${label}-${suffix}`, title: `E2E ${label} ${suffix}` };
}

export type CompetitionFields = {
  /** Goes into the slug and title, to tell test competitions apart. */
  label?: string;
  ticketPrice?: number;
  totalTickets?: number;
  maxPerUser?: number;
  closesInSeconds?: number;
  /** Seconds from now to the postal deadline (at or after the close); by default SQL's: 2 working days after the close. */
  postalDeadlineInSeconds?: number;
  /** Seconds from now to the draw (at or after the postal deadline); by default the postal deadline. */
  drawInSeconds?: number;
  /** The cash the winner may take instead of the prize, in pounds; none by default. */
  cashAlternative?: number;
  prizeValue?: number;
  opensAt?: string;
  /** The skill question; null for none. By default a banana question answered "Yellow". */
  question?: { text: string; options: string[]; answer: string } | null;
  images?: string[];
  /** How tickets are numbered: in purchase order (the default) or picked by players. */
  ticketNumbering?: "in_order" | "pick";
  /** Instant-win prizes, set on the draft before publishing (admin_set_instant_win_prizes). */
  instantWins?: { kind: "credit" | "spin" | "physical"; title?: string; credit_amount?: number; quantity: number }[];
  /** The charity partner, as admin_create_competition takes it; none by default. */
  charity?: { name: string; registered_number: string; revenue_percent?: number; fixed_amount?: number };
  /** The prizes after the first, in order, as admin_create_competition takes them; none by default. */
  prizes?: { description: string; value: number; cash_alternative?: number }[];
};

/** Creates and publishes a competition through the admin RPCs (live at once unless opensAt is later). */
export async function createCompetition(fields: CompetitionFields = {}): Promise<TestCompetition> {
  const label = fields.label ?? "live";
  const { slug, title } = uniqueName(label);
  const client = await adminClient();
  // One clock for every date, so equal offsets give equal moments (a close, postal deadline and draw at once).
  const start = Date.now();
  const inSeconds = (seconds: number) => new Date(start + seconds * 1000).toISOString();
  const closesAt = inSeconds(fields.closesInSeconds ?? 7 * 86_400);
  const question =
    fields.question === undefined
      ? { text: "What colour is a ripe banana?", options: ["Blue", "Yellow", "Purple"], answer: "Yellow" }
      : fields.question;
  const draft = await rpc<{ id: string }>(client, "admin_create_competition", {
    p: {
      title,
      slug,
      summary: `A competition made by an end-to-end test (${label}).`,
      description: "Made for a test. Nothing to win.",
      prize_description: "A test prize",
      prize_value: fields.prizeValue ?? 100,
      ...(fields.cashAlternative !== undefined ? { cash_alternative: fields.cashAlternative } : {}),
      images: fields.images ?? ["/competitions/steam-deck-oled.svg"],
      ticket_price: fields.ticketPrice ?? 1,
      total_tickets: fields.totalTickets ?? 50,
      max_tickets_per_user: fields.maxPerUser ?? Math.min(20, fields.totalTickets ?? 50),
      ticket_numbering: fields.ticketNumbering ?? "in_order",
      ...(fields.opensAt ? { opens_at: fields.opensAt } : {}),
      closes_at: closesAt,
      ...(fields.postalDeadlineInSeconds !== undefined
        ? { postal_deadline: inSeconds(fields.postalDeadlineInSeconds) }
        : {}),
      ...(fields.drawInSeconds !== undefined ? { draw_at: inSeconds(fields.drawInSeconds) } : {}),
      ...(question
        ? { skill_question: question.text, skill_options: question.options, skill_answer: question.answer }
        : {}),
      ...(fields.charity ? { charity: fields.charity } : {}),
      ...(fields.prizes ? { prizes: fields.prizes } : {}),
    },
  });
  if (fields.instantWins) {
    await rpc(client, "admin_set_instant_win_prizes", { p_competition_id: draft.id, p_prizes: fields.instantWins });
  }
  const live = await rpc<{ seed_commitment: string }>(client, "admin_publish_competition", {
    p_id: draft.id,
    p_external_randomness: null,
  });
  return {
    id: draft.id,
    slug,
    title,
    path: `/competitions/${slug}`,
    seed_commitment: live.seed_commitment,
    closes_at: closesAt,
  };
}

/**
 * Buys tickets directly through the API as `user` (another player, not the one in the browser); on a pick
 * competition, the chosen `numbers`.
 */
export async function buyAs(
  user: TestUser,
  competitionId: string,
  quantity: number,
  answer: string | null = "Yellow",
  numbers?: number[],
) {
  const client = await signedInClient(user.email);
  return rpc<{ ticket_numbers: number[]; balance: number }>(client, "enter_competition", {
    p_competition_id: competitionId,
    p_quantity: quantity,
    p_answer: answer,
    ...(numbers ? { p_numbers: numbers } : {}),
  });
}

export type PublicCompetition = {
  status: string;
  tickets_sold: number;
  opens_at: string;
  closes_at: string;
  postal_deadline: string;
  draw_at: string;
  postal_entries: number;
  postal_tickets: number;
  postal_tickets_per_entry: number;
  entry_list_open: boolean;
  draw: { id: string; winning_number: number; winner_display_name: string; ticket_count: number } | null;
};

/** The competition as the public sees it. */
export async function publicCompetition(slug: string): Promise<PublicCompetition> {
  return rpc(createClient(backendUrl, EMBEDDED_PUBLISHABLE_KEY, options), "get_competition", { p_slug: slug });
}

/** Every published competition as the public list gives it (list_competitions as anon). */
export async function publicCompetitions(): Promise<(PublicCompetition & { slug: string; title: string })[]> {
  return rpc(createClient(backendUrl, EMBEDDED_PUBLISHABLE_KEY, options), "list_competitions");
}

/** Records a free postal entry as the admin does (the address must hold a UK postcode). */
export async function recordPostalEntry(
  competitionId: string,
  entry: { name: string; address: string; userId?: string | null; answer?: string | null },
): Promise<{ entry_id: string; ticket_numbers: number[]; tickets: number }> {
  return rpc(await adminClient(), "admin_record_postal_entry", {
    p_competition_id: competitionId,
    p_user_id: entry.userId ?? null,
    p_name: entry.name,
    p_address: entry.address,
    p_answer: entry.answer === undefined ? "Yellow" : entry.answer,
  });
}

/** The launch_at site setting, which the home page counts down to (null when unset). */
export async function launchAt(): Promise<string | null> {
  return (await rpc<{ launch_at: string | null }>(await adminClient(), "get_site_settings")).launch_at;
}

export async function setLaunchAt(value: string | null): Promise<void> {
  await rpc(await adminClient(), "admin_set_launch_at", { p_launch_at: value });
}

/** Auth mail the embedded backend caught for `email`, newest first (GET /_embedded/mail). */
export async function caughtMail(email: string): Promise<{ kind: string; subject: string; body: string }[]> {
  const response = await fetch(`${backendUrl}/_embedded/mail?email=${encodeURIComponent(email)}`, {
    headers: { apikey: EMBEDDED_SECRET_KEY },
  });
  if (!response.ok) throw new Error(`reading the mail outbox: ${response.status}`);
  return response.json();
}

/** The app's own mail to `email` (receipts, campaigns), newest first (GET /_embedded/app-mail). */
export async function caughtAppMail(
  email: string,
): Promise<{ kind: string; subject: string; body_text: string; list_unsubscribe: string | null }[]> {
  const response = await fetch(`${backendUrl}/_embedded/app-mail?email=${encodeURIComponent(email)}`, {
    headers: { apikey: EMBEDDED_SECRET_KEY },
  });
  if (!response.ok) throw new Error(`reading the app's mail outbox: ${response.status}`);
  return response.json();
}

/** Asks for a password-reset mail for `email` and returns its /auth/confirm link (path and query). */
export async function recoveryLink(email: string): Promise<URL> {
  const client = createClient(backendUrl, EMBEDDED_PUBLISHABLE_KEY, options);
  const { error } = await client.auth.resetPasswordForEmail(email);
  if (error) throw new Error(`recovery mail for ${email}: ${error.message}`);
  const [mail] = await caughtMail(email);
  const match = /https?:\/\/\S+\/auth\/confirm\?\S+/.exec(mail?.body ?? "");
  if (!match) throw new Error(`no recovery link in the mail to ${email}`);
  return new URL(match[0]);
}

/**
 * Moves time instead of waiting for it: the competition's close (`until: "close"`), or its close, postal
 * deadline and draw time (`until: "draw"`), become now, as if the test had waited (the embedded backend's
 * test fixture, on only for this suite). The public pages are revalidated, as after any change.
 */
export async function makeDue(competitionId: string, until: "close" | "draw"): Promise<void> {
  const response = await fetch(`${backendUrl}/_embedded/test/competition-due`, {
    method: "POST",
    headers: { apikey: EMBEDDED_SECRET_KEY, "content-type": "application/json" },
    body: JSON.stringify({ competition_id: competitionId, until }),
  });
  if (!response.ok)
    throw new Error(`moving ${competitionId} to its ${until}: ${response.status} ${await response.text()}`);
  await revalidatePublicPages();
}

/** What the cron does: draws every competition whose draw time has come (the secret-key client). */
export async function runDueDraws(): Promise<{ drawn: { competition_id: string; draw_id: string }[] }> {
  return rpc(serviceClient(), "run_due_draws");
}

/**
 * Brings the competition's draw time to now and runs the cron's function: answers the competition as the
 * public then sees it, drawn (or closed, with no tickets).
 */
export async function drawNow(competition: { id: string; slug: string }): Promise<PublicCompetition> {
  await makeDue(competition.id, "draw");
  await runDueDraws();
  return publicCompetition(competition.slug);
}

/** Verifies a claimed prize as the admin does, with the identity check the step needs (a passport ending 1234). */
export async function verifyClaim(drawId: string) {
  await rpc(await adminClient(), "admin_update_prize_fulfilment", {
    p_draw_id: drawId,
    p_status: "verified",
    p_document_type: "passport",
    p_document_last_four: "1234",
  });
}

/** A complaint sent through the API as `user` (submit_complaint); answers its reference. */
export async function complainAs(user: TestUser, subject: string, details: string): Promise<{ reference: string }> {
  return rpc(await signedInClient(user.email), "submit_complaint", {
    p_subject: subject,
    p_reference: null,
    p_details: details,
  });
}

/** `user`'s complaints as get_my_complaints lists them. */
export async function complaintsOf(user: TestUser): Promise<{ reference: string; subject: string; status: string }[]> {
  return rpc(await signedInClient(user.email), "get_my_complaints");
}

/** The public settings the complaints page shows (get_site_settings, as anyone). */
export async function complaintSettings(): Promise<{
  complaints_contact: string;
  dispute_resolution_body: { name: string; url: string };
}> {
  return rpc(createClient(backendUrl, EMBEDDED_PUBLISHABLE_KEY, options), "get_site_settings");
}

export type PublicDraw = {
  id: string;
  algorithm: string;
  ticket_count: number;
  ticket_list_hash: string;
  winning_position: number | null;
  winning_number: number;
  winning_ticket_id: string;
  /** Every prize of the same draw, first prize first. */
  prizes: { prize_position: number; draw_id: string; winning_number: number; prize_description: string }[];
};

/** A draw as its verification page reads it (get_draw, as anyone). */
export async function publicDraw(drawId: string): Promise<PublicDraw> {
  return rpc(createClient(backendUrl, EMBEDDED_PUBLISHABLE_KEY, options), "get_draw", { p_draw_id: drawId });
}

/** How many browser checks of the draw the trust page's figures count (get_transparency_report, the site's call). */
export async function drawChecks(drawId: string): Promise<number | undefined> {
  const report = await rpc<{ draws: { draw_id: string; checks: number }[] }>(
    serviceClient(),
    "get_transparency_report",
  );
  return report.draws.find((d) => d.draw_id === drawId)?.checks;
}

/** A user's balance in pounds as the server reads it (get_credit_balance with the secret key). */
export async function balanceOf(userId: string): Promise<number> {
  return Number(await rpc(serviceClient(), "get_credit_balance", { user_id: userId }));
}

/** The approval mode, read and set as the demo admin (admin_get_approval_mode / admin_set_approval_mode). */
export async function approvalMode(): Promise<"manual" | "auto"> {
  return (await rpc<{ approval_mode: "manual" | "auto" }>(await adminClient(), "admin_get_approval_mode"))
    .approval_mode;
}
export async function setApprovalMode(mode: "manual" | "auto"): Promise<void> {
  await rpc(await adminClient(), "admin_set_approval_mode", { p_mode: mode });
}

/** The operator settings as the settings screen reads them (admin_get_settings, as the demo admin). */
export async function adminSettings(): Promise<Record<string, unknown>> {
  return (await rpc<{ settings: Record<string, unknown> }>(await adminClient(), "admin_get_settings")).settings;
}

/** Saves settings as the demo admin (admin_update_settings: all or nothing; money settings need a super admin). */
export async function updateSettings(changes: Record<string, unknown>): Promise<void> {
  await rpc(await adminClient(), "admin_update_settings", { p: changes });
}

/** A player's marketing choice ("E-mail me about new competitions and results"), set as they would on their profile. */
export async function setMarketingConsent(user: TestUser, consent: boolean): Promise<void> {
  await rpc(await signedInClient(user.email), "set_my_marketing_consent", { p_given: consent });
}

/** Approves the account that signed up with `email` through the form, as an admin does; returns it as a TestUser. */
export async function approveSignUp(email: string, name: string, password: string): Promise<TestUser> {
  const found = await rpc<{ id: string } | null>(await adminClient(), "admin_find_account", { p_email: email });
  if (!found) throw new Error(`no account for ${email}`);
  await rpc(await adminClient(), "admin_approve_user", { p_user_id: found.id });
  return { id: found.id, email, name, password };
}

/** An admin's marketing mail to a competition's entrants (admin_send_mail), as the mail screen sends it. */
export async function sendMarketingToEntrants(competitionId: string, subject: string): Promise<{ recipients: number }> {
  return rpc(await adminClient(), "admin_send_mail", {
    p_kind: "marketing",
    p_segment: "competition_entrants",
    p_competition_id: competitionId,
    p_subject: subject,
    p_body: "Three new competitions open on Friday. Good luck!",
    p_request_id: null,
  });
}

/** Opens a test checkout for `amount` as the player (pending until paid, failed or expired). */
export async function openTopUp(user: TestUser, amount: number): Promise<string> {
  return (
    await rpc<{ id: string }>(await signedInClient(user.email), "create_top_up", {
      p_amount: amount,
      p_provider: "test",
    })
  ).id;
}

/** The payment provider confirms a checkout paid in full (as the webhook or the test checkout does). */
export async function payTopUp(id: string, amount: number): Promise<void> {
  await rpc(serviceClient(), "confirm_top_up", {
    p_top_up_id: id,
    p_payment_id: `pi_e2e_${id}`,
    p_funding: "debit",
    p_amount_paid: amount,
  });
}

/** The payment provider reports a checkout expired unpaid. */
export async function expireTopUp(id: string): Promise<void> {
  await rpc(serviceClient(), "fail_top_up", { p_top_up_id: id, p_status: "expired" });
}

/** The player's marketing consent as their profile reads it. */
export async function marketingConsentOf(user: TestUser): Promise<{ given: boolean; source: string | null }> {
  return rpc(await signedInClient(user.email), "get_my_marketing_consent");
}

/** The latest mail campaigns as the admin mail screen lists them (admin_list_mail_campaigns). */
export async function mailCampaigns(): Promise<{ id: string; subject: string; recipients: number }[]> {
  return rpc(await adminClient(), "admin_list_mail_campaigns", { p_limit: 100 });
}

/** Sets `user`'s monthly limit as they would on their responsible-play page (set_monthly_limit; null for none). */
export async function setMonthlyLimitAs(user: TestUser, limit: number | null): Promise<void> {
  await rpc(await signedInClient(user.email), "set_monthly_limit", { p_limit: limit });
}

export type SpinnerSegment = {
  position: number;
  label: string;
  colour: string;
  label_colour: string;
  prize_credits: number;
  weight: number;
  probability: number;
};

/** The live LabSpinner wheel as /labspinner reads it (get_spinner_wheel, as anyone). */
export async function spinnerWheel(): Promise<{
  wheel_id: number;
  enabled: boolean;
  total_weight: number;
  expected_prize: number;
  segments: SpinnerSegment[];
}> {
  return rpc(createClient(backendUrl, EMBEDDED_PUBLISHABLE_KEY, options), "get_spinner_wheel");
}

/** Saves these segments as a new wheel version as the demo admin (admin_update_spinner_wheel). */
export async function saveSpinnerWheel(segments: Omit<SpinnerSegment, "position" | "probability">[]): Promise<void> {
  const fields = segments.map(({ label, colour, label_colour, prize_credits, weight }) => ({
    label,
    colour,
    label_colour,
    prize_credits,
    weight,
  }));
  await rpc(await adminClient(), "admin_update_spinner_wheel", { p_segments: fields });
}

/** A player's spin credits as the admin user page reads them (admin_user_spins, as the demo admin). */
export async function spinCreditsOf(userId: string): Promise<{ available: number; granted: number }> {
  return (
    await rpc<{ credits: { available: number; granted: number } }>(await adminClient(), "admin_user_spins", {
      p_user_id: userId,
    })
  ).credits;
}

/** Records a postal LabSpinner request for `userId` as the demo admin (admin_record_spin_request): one spin credit. */
export async function recordSpinRequest(userId: string, reference = "E2E postcard"): Promise<void> {
  await rpc(await adminClient(), "admin_record_spin_request", { p_user_id: userId, p_reference: reference });
}

/** Starts a break for `user` as they would on their responsible-play page (take_break). */
export async function takeBreakAs(user: TestUser, period: "1 week" | "1 month" | "3 months" = "1 week"): Promise<void> {
  await rpc(await signedInClient(user.email), "take_break", { p_period: period });
}

/**
 * Pays a drawn competition's charity as an admin records it: a one-page PDF uploaded to the proofs bucket, then the
 * payment with its reference. The proof's site path.
 */
export async function recordCharityDonation(competitionId: string, amount: string, reference: string): Promise<string> {
  const client = await adminClient();
  const name = `${randomUUID()}.pdf`;
  const pdf = Buffer.from("%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n");
  const { error } = await client.storage.from("charity-proofs").upload(name, pdf, { contentType: "application/pdf" });
  if (error) throw new Error(`uploading a proof: ${error.message}`);
  const proofPath = `/media/charity-proofs/${name}`;
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London" }).format(new Date());
  await rpc(client, "admin_record_charity_donation", {
    p_competition_id: competitionId,
    p: { amount, donated_on: today, reference, proof_path: proofPath },
  });
  return proofPath;
}
