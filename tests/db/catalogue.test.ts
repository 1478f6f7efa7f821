// Catalogue checks over schemas public and private, so that every future migration is
// held to the same rules (ARCHITECTURE §4 "Function privileges", "SQL style").
// A new RPC, a new table or a new sequence fails here until it is a recorded decision.
import { describe, expect, it } from "vitest";
import { dbPerFile } from "./support";

const db = dbPerFile();

/**
 * Functions anon (and so anyone on the internet) may execute. Adding one is a decision:
 * it must be safe for a caller with no account and say why here.
 */
const ANON_EXECUTABLE: Record<string, string> = {
  "is_admin()": "spec §6 guard, called by row-level policies; false for anon (and for an aal1 session)",
  "is_super_admin()": "spec §6 guard; false for anon (and for an aal1 session)",
  "has_permission(text)": "spec §6 guard; false for anon",
  "list_competitions(text)": "public competition pages: published competitions only, never the answer",
  "get_competition(text)": "public competition pages: one published competition, never the answer",
  "list_winners()": "public winners page: first name, initial and town only",
  "get_competition_prizes(text)":
    "a published competition's prizes in order and, once drawn, each one's winning ticket and published winner",
  "get_competition_charity(text)":
    "a published competition's charity partner: the charity, its terms, owed, paid and each donation's proof",
  "list_charities()": "the public charities page: each charity's totals and its published competitions' donations",
  "winner_photo_published(text)":
    "the winner-photos route: whether a photo path is published (its winner consents); nothing about who",
  "get_draw(uuid)": "public draw verification page: every input of a finished draw",
  "get_instant_wins(text)":
    "a published competition's instant-win prizes, wins so far (public names) and commitment; the numbers only after the draw",
  "get_site_settings()": "the launch countdown on the home page: only settings meant for every visitor",
  "get_entry_list(text,integer,integer,integer,integer)":
    "public entry list once online sales end: ticket numbers, public names (or initials) and towns, never e-mails",
  "get_ticket_list_csv(text,integer,integer)": "public ticket list once online sales end: numbers and ticket ids only",
  "get_entrants_csv(text,integer,integer)": "public entrants list once online sales end: the entry list as CSV",
  "get_spinner_wheel()": "the public LabSpinner odds: the live wheel's segments, weights and probabilities, on/off",
  "check_ticket(text,integer)":
    '"Did I win?": whether a published competition\'s ticket number won, lost or awaits the draw; never who holds it',
  "get_ticket_numbers(uuid,integer,integer)":
    "a pick competition's number grid: which numbers are sold or held in a basket, never by whom; no basket for anon",
  "get_referral_invitation(text)":
    "an invite link's page and preview card: for a code sign-up accepts, the inviter's first name (approved, not by initials, a plain name) and the credit; nothing else",
};

/**
 * Security definer functions a signed-in user may execute: each bypasses row-level
 * security, so each checks its caller itself. Adding one is a decision; say why here.
 */
const AUTHENTICATED_DEFINER: Record<string, string> = {
  "is_admin()": "reads the caller's role and session level (aal2) for policies; answers only about the caller",
  "is_super_admin()": "reads the caller's role and session level (aal2); answers only about the caller",
  "has_permission(text)": "spec §6 permission check about the caller only",
  "get_my_account()": "the caller's own profile and account; creates the rows if missing",
  "update_my_profile(text,boolean,text)":
    "changes only the caller's own profile, validated; a changed marketing choice is recorded",
  "get_my_marketing_consent()":
    "the caller's own marketing consent and the time, wording and source of their last choice",
  "set_my_marketing_consent(boolean)": "gives or withdraws the caller's own marketing consent, recorded",
  "my_return_path(text)":
    "records (validated, only while waiting for approval) and reads the caller's own page to return to",
  "get_my_ledger(integer,bigint)": "the caller's own ledger rows",
  "get_credit_balance(uuid)": "own balance, or any balance for admins (checked inside)",
  "deduct_credits(uuid,numeric)": "spends the caller's own credit through the ledger (checked inside), never overdraws",
  "get_site_settings()": "public settings; reads app_settings, which no API role may read",
  "admin_set_launch_at(timestamp with time zone)": "admins only (checked inside); writes app_settings and the log",
  "admin_list_pending_approvals()": "admins only (checked inside); reads every account",
  "admin_approve_user(uuid)": "admins only (checked inside); changes another user's account",
  "admin_reject_user(uuid,text)": "admins only (checked inside); changes another user's account",
  "list_competitions(text)": "published competitions without the answer column's value",
  "get_competition(text)": "one published competition and the caller's own ticket numbers",
  "get_entry_quote(uuid)": "the caller's credit, cap and prices for one competition",
  "enter_competition(uuid,integer,text,integer[])":
    "buys tickets: locks the competition, allocates numbers (or the caller's chosen ones), writes the ledger",
  "make_entries_durable()":
    "any signed-in caller (checked inside): flushes the WAL past their asynchronously committed purchase; reads and writes no row",
  "get_ticket_numbers(uuid,integer,integer)":
    "a pick competition's number grid: numbers sold and held (never by whom), and the caller's own basket",
  "hold_ticket_numbers(uuid,integer[],integer,integer,integer)":
    "sets the caller's own basket of chosen numbers, within their per-person cap",
  "get_my_entries()": "the caller's own entries with draw results",
  "list_winners()": "every draw's public fields",
  "get_competition_charity(text)": "a competition's charity partner as anon sees it; admins also a draft's",
  "get_competition_prizes(text)": "a competition's prizes as anon sees them; admins also a draft's",
  "list_charities()": "the charities page as anon sees it",
  "admin_competition_charity(uuid)": "admins only (checked inside); any competition's charity partner",
  "admin_record_charity_donation(uuid,jsonb)":
    "admins only (checked inside); a payment to a drawn competition's charity with its proof, audited",
  "get_draw(uuid)": "one draw's public inputs and the ticket ids",
  "get_instant_wins(text)": "instant wins as anon sees them; admins also a draft's",
  "admin_set_instant_win_prizes(uuid,jsonb)": "admins only (checked inside); a draft's instant-win prizes",
  "admin_list_instant_win_fulfilment()": "admins only (checked inside); instant wins to deliver",
  "admin_mark_instant_win_delivered(uuid)": "admins only (checked inside); audited",
  "run_due_draws()": "admins (checked inside) and the cron server draw due competitions",
  "admin_list_competitions()": "admins only (checked inside); drafts and answers included",
  "admin_get_competition(uuid)": "admins only (checked inside); the answer included",
  "admin_create_competition(jsonb)": "admins only (checked inside); validated fields",
  "admin_update_competition(uuid,jsonb)": "admins only (checked inside); limited once tickets are sold",
  "admin_publish_competition(uuid,jsonb)": "admins only (checked inside); makes the secret seed",
  "admin_cancel_competition(uuid,text)": "admins only (checked inside); refunds through the ledger",
  "admin_record_postal_entry(uuid,uuid,text,text,text)": "admins only (checked inside); allocates a free ticket",
  "admin_update_prize_status(uuid,text)": "admins only (checked inside); prize tracking on a draw",
  "quote_top_up(numeric)": "the caller's own top-up quote: settings, their limit and balance; writes nothing",
  "get_top_up_options()": "the caller's own top-up page: settings, their limit and blocks",
  "create_top_up(numeric,text,jsonb)":
    "starts the caller's own pending top-up after the limit and block checks; credits nothing",
  "get_top_up(uuid)": "one of the caller's own top-ups (anyone else's is top_up_not_found)",
  "dismiss_limit_prompt()": "the caller's own protections row",
  "get_my_protections()": "the caller's own limit, sums and state",
  "set_monthly_limit(numeric)": "the caller's own limit: decreases at once, increases after the cooling-off",
  "take_break(text)": "the caller's own break; can only extend a block",
  "self_exclude(integer)": "the caller's own self-exclusion; can only extend a block",
  "get_entry_list(text,integer,integer,integer,integer)": "the public entry list (see anon)",
  "get_ticket_list_csv(text,integer,integer)": "the public ticket list (see anon)",
  "get_entrants_csv(text,integer,integer)": "the public entrants list (see anon)",
  "set_initials_only(boolean)": "the caller's own winner-name preference",
  "claim_prize(uuid,text,text)":
    "the winner only (checked inside) claims the prize (with a delivery address) or the cash",
  "get_my_prizes()": "the caller's own prizes and their progress",
  "get_my_dashboard()": "the caller's own limit invitation and unclaimed prizes",
  "set_my_winner_story_consent(uuid,boolean)":
    "the winner only (checked inside) gives or withdraws consent to publish their photo and quote, audited",
  "admin_record_winner_story_consent(uuid,boolean,text)":
    "admins only (checked inside); records a winner's photo consent given another way, with a note, audited",
  "admin_set_winner_story(uuid,text,text,text)":
    "admins only (checked inside); a consenting winner's photo path, alt text and quote, audited",
  "admin_remove_winner_story(uuid)": "admins only (checked inside); removes a winner's photo and quote, audited",
  "winner_photo_published(text)": "whether a winner photo is published (see anon)",
  "submit_complaint(text,text,text)": "records the caller's own complaint, at most 3 a day",
  "get_my_complaints()": "the caller's own complaints",
  "admin_list_complaints(text)": "admins only (checked inside); every complaint with the complainant",
  "admin_update_complaint(uuid,text,text)": "admins only (checked inside); acknowledges or answers a complaint",
  "close_account()": "closes the caller's own account for good",
  "get_my_ledger_page(text,date,bigint,integer)": "the caller's own ledger rows and totals",
  "get_my_ledger_csv(text,date)": "the caller's own ledger as CSV",
  "admin_dashboard()": "admins only (checked inside); counts and daily sums over every account, entry and top-up",
  "admin_list_activity(text,text,text,date,date,bigint,integer)":
    "admins only (checked inside); the audit log with names and e-mails of actors and subjects",
  "admin_activity_export(text,text,text,date,date,bigint,integer)":
    "admins only (checked inside); the audit log's rows for its CSV, same filters and names as the screen",
  "admin_competition_detail(uuid)":
    "admins only (checked inside); a competition's figures and postal entries with names, addresses and e-mails",
  "admin_competition_entries_csv(uuid,integer,integer)":
    "admins only (checked inside); every entry of a competition with the buyer's name, e-mail and postal address",
  "admin_competition_history()": "admins only (checked inside); revenue and prize cost of finished competitions",
  "admin_list_prize_fulfilment(text)": "admins only (checked inside); each winner's contact details and claim",
  "admin_update_prize_fulfilment(uuid,text,text,text,text,text,text)":
    "admins only (checked inside); prize status, notes, proof of delivery and the identity check on a draw, audited",
  "admin_find_account(text)": "admins only (checked inside); one account's id and name by its exact e-mail",
  "admin_list_users(text,text,text,text,text,integer,boolean)":
    "admins only (checked inside); every account's name, e-mail, role, approval, KYC status and balance",
  "admin_get_user(uuid)": "admins only (checked inside); one account with its limits, entries and activity",
  "admin_user_ledger(uuid,bigint,integer)": "admins only (checked inside); one account's ledger rows",
  "admin_update_user(uuid,text,text,text)": "admins only (checked inside); name, approval and KYC status, audited",
  "admin_set_user_role(uuid,text)": "super admins only (checked inside); another user's role, audited",
  "admin_adjust_credit(uuid,numeric,text)":
    "admins only (checked inside); credit with a reason through the ledger, large ones super admins only, never own",
  "admin_delete_user(uuid)": "super admins only (checked inside); anonymises a player, keeps ledger and tickets",
  "admin_record_two_step_reset(uuid)":
    "super admins at aal2 only (checked inside); allows and audits removing another user's second factors",
  "confirm_reauthentication(text)":
    "the caller's own e-mailed code (checked inside against their auth row); five tries a code, once, within the hour",
  "record_factor_enrolment()":
    "the caller at aal2 with a fresh inbox confirmation (checked inside); proves their own factors, audited",
  "get_my_factor_proof()": "the caller's own factor proof and inbox confirmation; reads auth and private rows",
  "create_recovery_codes()":
    "admins at aal2 only (checked inside); ten new codes shown once, hashes kept, old ones void",
  "get_my_recovery_state()": "the caller's own unused recovery codes and whether their session used one",
  "use_recovery_code(text)":
    "the caller's own code, in a session begun with the password (checked inside); once each, audited",
  "record_factor_removal_with_recovery_code(uuid)":
    "the caller's own factor, after a recovery code used in this session (checked inside); audited",
  "admin_approve_users(uuid[])": "admins only (checked inside); approves waiting accounts in bulk",
  "admin_get_approval_mode()": "admins only (checked inside); reads the approval_mode setting",
  "admin_set_approval_mode(text)": "admins only (checked inside); writes the approval_mode setting, audited",
  "admin_preview_mail(text,text,uuid,text,text)":
    "admins only (checked inside); counts a mail segment's recipients and renders the message; sends nothing",
  "admin_send_mail(text,text,uuid,text,text,uuid)":
    "admins only (checked inside); queues a mail to a segment (marketing only with consent, never on a break), audited",
  "admin_list_mail_campaigns(integer)": "admins only (checked inside); the campaigns sent, with counts by status",
  "admin_list_mail_outbox(uuid,text,bigint,integer)":
    "admins only (checked inside); the mail outbox with each recipient's e-mail and the delivery status",
  "admin_get_settings()": "admins only (checked inside); reads every operator setting and who changed it",
  "admin_update_settings(jsonb)":
    "admins only (checked inside), money settings super admins only; checked values, all or nothing, audited",
  "admin_get_complaint(uuid)": "admins only (checked inside); one complaint with the complainant",
  "admin_list_player_flags(text,integer)":
    "admins only (checked inside); the player-protection review queue with names and e-mails; raises new flags first",
  "admin_get_player_protection(uuid)":
    "admins only (checked inside); one player's flags, interventions and restriction",
  "admin_record_intervention(uuid,text,text)":
    "admins only (checked inside); records and applies an intervention (restriction, closure) on a player, audited",
  "admin_review_player_flag(uuid,text,text)":
    "admins only (checked inside); marks a flag reviewed with a note, optionally with an intervention, audited",
  "get_spinner_wheel()": "the public LabSpinner odds (see anon); reads the wheel tables, which no API role may read",
  "check_ticket(text,integer)": '"Did I win?" (see anon); reads tickets and draws, never the holder',
  "get_my_notifications(integer,bigint)": "the caller's own notifications and unread count",
  "get_my_unread_count()": "the caller's own unread notification count (the header's bell)",
  "mark_notification_read(bigint)": "marks one of the caller's own notifications read; another's is not found",
  "mark_all_notifications_read()": "marks the caller's own unread notifications read",
  "get_my_push_settings()": "the caller's own push kinds and subscribed endpoints",
  "set_my_push_kinds(text[])": "sets the caller's own push kinds, known kinds only",
  "save_push_subscription(text,text,text)":
    "stores this browser's push subscription (an endpoint on a push service, checked keys) for the caller; one row per endpoint, at most 10 per player",
  "delete_push_subscription(text)": "removes one of the caller's own push subscriptions",
  "get_my_spinner()":
    "the caller's own spin credits, block and active seed pair (its hash, never the server seed); creates the pair",
  "spin_wheel()":
    "spends one of the caller's own spin credits under their account lock, derives and records the spin, pays the prize",
  "set_spinner_client_seed(text)": "the caller's own active client seed, validated",
  "rotate_spinner_seed(text)": "reveals the caller's own server seed and starts a new pair",
  "get_my_spin_history()": "the caller's own seed pairs (server seeds only once revealed), spins and their wheels",
  "reveal_spinner_spin(bigint)":
    "the caller's own spin only (another's is not found): reveals its seed pair, rotating the active one, under their account lock",
  "dismiss_approval_welcome()": "the caller's own one-time welcome flag, nothing else",
  "admin_get_spinner()": "admins only (checked inside); the wheel, observed counts, versions and postal grants",
  "admin_update_spinner_wheel(jsonb)": "admins only (checked inside); a new validated wheel version, audited",
  "admin_record_spin_request(uuid,text)":
    "admins only (checked inside); one postal spin credit for a player, mailed and audited",
  "admin_user_spins(uuid)": "admins only (checked inside); one player's spin credits, spins and postal grants",
  "admin_system_overview()":
    "admins only (checked inside); the System page: job runs, overdue draws, webhooks, payments, mail failures, refusals, storage, alerts (raises new alerts)",
  "admin_open_alerts()": "admins only (checked inside); the open alerts, for super admins only (an admin gets none)",
  "admin_deep_health()": "super admins only (checked inside); queue lengths and the oldest overdue items",
  "admin_retry_mail(bigint)": "super admins only (checked inside); puts a failed mail back in the queue, audited",
  "admin_resolve_payment(text,text,text)":
    "super admins only (checked inside); records how a payment needing a person was dealt with, audited",
  "admin_acknowledge_alert(bigint)": "super admins only (checked inside); marks an alert seen, audited",
  "get_referral_invitation(text)":
    "reads invite codes and the inviter's profile, which no API role may read for others; answers a first name and the credit only",
  "get_my_referrals()":
    "the caller's own invite code (made on first use), how many friends joined with it and what was credited, no names",
  "admin_get_user_referrals(uuid)":
    "admins only (checked inside); who invited a player and whom they invited, with status and reason",
  "admin_webhook_refusals()":
    "admins only (checked inside); webhook calls refused for a bad signature per hour, the last 24 hours",
};

/** Functions only the server (secret key) may execute. */
const SERVER_ONLY: Record<string, string> = {
  "add_credits(uuid,numeric,numeric)": "the spec's credit procedure; admins adjust through admin_adjust_credit instead",
  "claim_mail_batch(integer)": "the mail adapter claims queued mail",
  "mark_mail_sent(bigint,text)": "the mail adapter records a delivery",
  "mark_mail_failed(bigint,text)": "the mail adapter records a failure",
  "claim_push_batch(integer)": "the cron's push delivery takes notifications waiting to be pushed, once each",
  "remove_push_subscription(text)": "the push sender drops a subscription the push service answered 404 or 410 for",
  "unsubscribe_marketing(text)":
    "the unsubscribe page and the one-click POST withdraw the consent a mail's random token names, once, signed out",
  "attach_checkout_session(uuid,text)": "the payment adapter records a checkout session",
  "find_top_up_by_session(text)": "the webhook finds a top-up from its checkout session",
  "confirm_top_up(uuid,text,text,numeric)": "the webhook and the test checkout credit a paid top-up, once",
  "fail_top_up(uuid,text)": "the webhook and the test checkout mark a top-up failed or expired",
  "record_top_up_refund(text,text,numeric)": "the webhook and the adapter record a refund and reverse the credit",
  "raise_player_flags()": "the cron raises player-protection flags (the review queue raises them too, for admins)",
  "record_cron_run(text,timestamp with time zone,boolean,jsonb,text)": "the cron records each run and its result",
  "go_live_catalogue()": "the go-live check reads the applied migrations, Storage policies and the cron's last run",
  "record_webhook_delivery(text,text,text,text,integer,text)": "the webhook records how it answered an event",
  "record_auth_refusal(text)": "the sign-in and two-step actions count refusals per hour",
  "record_draw_check(uuid,text)": "the site counts a visitor's browser check of a draw, keyed by the visitor it saw",
  "forget_draw_check_salts()": "the cron drops the salts of draw-check hashes of days that are over",
  "get_transparency_report()":
    "the trust page's figures: they read every entry, so only the site computes them, once a minute",
  "get_transparency_charity_figures()":
    "the trust page's charity figures, computed and cached with the rest of its report by the site alone",
  "record_webhook_refusal(text)":
    "the webhook counts calls refused for a bad signature per hour (and raises an alert past three)",
  "check_referral_code(text,text)":
    "the sign-up form checks an invite code before the account is made: unknown or the visitor's own (no account data)",
  "ask_for_email_code(text)":
    "the sign-in link, reset and inbox code forms count a new e-mailed code against the address (a few an hour)",
  "email_code_sent(text)":
    "the sign-in link, reset and inbox code forms give the address's new code five tries once the auth server sent it",
  "take_email_code_try(text)":
    "the code form and the e-mail link count each code typed for an address before the auth server checks it (five, then void)",
  "clear_email_code_tries(text)": "the code form and the e-mail link end an address's count once its code was right",
  "take_email_request(text,text,boolean,integer,integer)":
    "the sign-in link, reset and sign-up forms count a visitor's request before any look-up, past a threshold asking for a CAPTCHA",
  "settle_referrals()": "the cron settles referrals an entry could not settle because the inviter's account was busy",
  "invite_super_admin(text,boolean)":
    "npm run setup:admin records a super-admin invitation before the auth server sends it (the role waits for its acceptance)",
  "ops_check()": "the public health check: raises new alerts, then states of the job and mail (no counts)",
  "queue_sign_up_digests()": "the cron queues the admins' daily e-mail of accounts waiting for approval, when it is on",
};

/**
 * Tables that grow with users, entries or time: every foreign key on them has an index,
 * or deleting a user (or a competition) scans them whole and locks them meanwhile.
 */
const GROWING_TABLES = [
  "winner_stories",
  "draw_checks",
  "charities",
  "competition_prizes",
  "competition_charities",
  "charity_donations",
  "prize_identity_checks",
  "ticket_holds",
  "notifications",
  "push_subscriptions",
  "push_preferences",
  "cron_runs",
  "webhook_deliveries",
  "auth_refusal_counts",
  "webhook_refusal_counts",
  "payment_resolutions",
  "ops_alerts",
  "profiles",
  "user_account_data",
  "credit_ledger",
  "activity_log",
  "mail_outbox",
  "competitions",
  "competition_seeds",
  "entries",
  "tickets",
  "postal_entries",
  "draws",
  "top_ups",
  "top_up_refunds",
  "player_protections",
  "complaints",
  "mail_campaigns",
  "marketing_consents",
  "marketing_unsubscribe_tokens",
  "player_flags",
  "player_interventions",
  "spinner_wheels",
  "spinner_segments",
  "spinner_seeds",
  "spinner_spins",
  "spinner_grants",
  "skill_answer_misses",
  "referral_codes",
  "referrals",
  "instant_win_prizes",
  "instant_win_numbers",
  "instant_wins",
];
/** Tables that stay small, with the reason their foreign keys need no index. */
const SMALL_TABLES: Record<string, string> = {
  app_settings: "a handful of operator settings",
  bank_holidays: "eight England and Wales bank holidays a year, no foreign keys",
};

const API_ROLES = ["anon", "authenticated", "service_role"];

const SCHEMAS = "('public'::regnamespace, 'private'::regnamespace)";

describe("tables", () => {
  it("every table in public has row-level security enabled", async () => {
    const rows = await db().sql(
      `select c.relname from pg_class c
        where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and not c.relrowsecurity
        order by 1`,
    );
    expect(rows).toEqual([]);
    const [{ n }] = await db().sql<{ n: number }>(
      "select count(*)::int as n from pg_class where relnamespace = 'public'::regnamespace and relkind in ('r', 'p')",
    );
    expect(n).toBeGreaterThanOrEqual(6);
  });

  it("anon and authenticated hold no write privilege on any table", async () => {
    const rows = await db().sql(
      `select c.relname, r.rolname, p.privilege
         from pg_class c
         cross join (values ('anon'), ('authenticated')) r(rolname)
         cross join unnest(array['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']) p(privilege)
        where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p')
          and has_table_privilege(r.rolname, c.oid, p.privilege)
        order by 1, 2, 3`,
    );
    expect(rows).toEqual([]);
  });

  it("anon and authenticated hold no privilege on any sequence, now or by default", async () => {
    const granted = await db().sql(
      `select c.oid::regclass::text as seq, r.rolname, p.privilege
         from pg_class c
         cross join (values ('anon'), ('authenticated')) r(rolname)
         cross join unnest(array['USAGE', 'SELECT', 'UPDATE']) p(privilege)
        where c.relkind = 'S' and c.relnamespace in ${SCHEMAS}
          and has_sequence_privilege(r.rolname, c.oid, p.privilege)
        order by 1, 2, 3`,
    );
    expect(granted).toEqual([]);
    const [{ n }] = await db().sql<{ n: number }>(
      `select count(*)::int as n from pg_class where relkind = 'S' and relnamespace = 'public'::regnamespace`,
    );
    expect(n).toBeGreaterThanOrEqual(3); // the identity sequences of the ledger, the log and the outbox
    // A sequence made by a later migration would inherit these.
    const defaults = await db().sql(
      `select d.defaclnamespace::regnamespace::text as schema, a.grantee::regrole::text as grantee, a.privilege_type
         from pg_default_acl d, aclexplode(d.defaclacl) a
        where d.defaclobjtype = 'S' and a.grantee in ('anon'::regrole, 'authenticated'::regrole)`,
    );
    expect(defaults).toEqual([]);
  });

  it("every table is listed as growing or small, and every foreign key on a growing table has an index", async () => {
    const tables = await db().sql<{ relname: string }>(
      "select relname from pg_class where relnamespace = 'public'::regnamespace and relkind in ('r', 'p') order by 1",
    );
    const listed = [...GROWING_TABLES, ...Object.keys(SMALL_TABLES)];
    expect(tables.map((t) => t.relname).filter((t) => !listed.includes(t))).toEqual([]);
    expect(listed.filter((t) => !tables.some((r) => r.relname === t))).toEqual([]);

    // An index serves a foreign key when the key's columns are its leading columns.
    const unindexed = await db().sql(
      `select c.conrelid::regclass::text as "table", c.conname as constraint
         from pg_constraint c
        where c.contype = 'f' and c.conrelid = any ($1::regclass[])
          and not exists (
            select 1 from pg_index i
             where i.indrelid = c.conrelid
               and (select array_agg(k order by k) from unnest((i.indkey::int2[])[0:cardinality(c.conkey) - 1]) k)
                 = (select array_agg(k order by k) from unnest(c.conkey) k))
        order by 1, 2`,
      [GROWING_TABLES.map((t) => `public.${t}`)],
    );
    expect(unindexed).toEqual([]);
    const [{ n }] = await db().sql<{ n: number }>(
      `select count(*)::int as n from pg_constraint where contype = 'f' and conrelid = any ($1::regclass[])`,
      [GROWING_TABLES.map((t) => `public.${t}`)],
    );
    expect(n).toBeGreaterThanOrEqual(20);
  });
});

describe("functions in public: the API, each one a recorded decision", () => {
  const functions = () =>
    db().sql<{
      fn: string;
      definer: boolean;
      public: boolean;
      anon: boolean;
      authenticated: boolean;
      service: boolean;
    }>(
      `select regexp_replace(p.oid::regprocedure::text, '^public\\.', '') as fn,
              p.prosecdef as definer,
              exists (select 1 from aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
                       where a.grantee = 0 and a.privilege_type = 'EXECUTE') as public,
              has_function_privilege('anon', p.oid, 'EXECUTE') as anon,
              has_function_privilege('authenticated', p.oid, 'EXECUTE') as authenticated,
              has_function_privilege('service_role', p.oid, 'EXECUTE') as service
         from pg_proc p
        where p.pronamespace = 'public'::regnamespace
        order by 1`,
    );

  it("none is executable by PUBLIC, and anon executes exactly the allow-listed ones", async () => {
    const rows = await functions();
    expect(rows.length).toBeGreaterThan(20);
    expect(rows.filter((r) => r.public).map((r) => r.fn)).toEqual([]);
    const anonCallable = rows.filter((r) => r.anon).map((r) => r.fn);
    expect(anonCallable.filter((fn) => !(fn in ANON_EXECUTABLE))).toEqual([]);
    // The allow-list names only functions that exist, so it cannot go stale unnoticed.
    expect(Object.keys(ANON_EXECUTABLE).filter((fn) => !anonCallable.includes(fn))).toEqual([]);
  });

  it("authenticated executes exactly the allow-listed security definer functions, and no invoker one", async () => {
    const rows = await functions();
    const definers = rows.filter((r) => r.authenticated && r.definer).map((r) => r.fn);
    expect(definers.filter((fn) => !(fn in AUTHENTICATED_DEFINER))).toEqual([]);
    expect(Object.keys(AUTHENTICATED_DEFINER).filter((fn) => !definers.includes(fn))).toEqual([]);
    // Every public function is a definer RPC today; an invoker one would be a new kind of decision.
    expect(rows.filter((r) => r.authenticated && !r.definer).map((r) => r.fn)).toEqual([]);
  });

  it("the server-only functions are executable by the secret key alone, and public holds nothing else", async () => {
    const rows = await functions();
    const serverOnly = rows.filter((r) => r.service && !r.authenticated && !r.anon).map((r) => r.fn);
    expect(serverOnly).toEqual(Object.keys(SERVER_ONLY).sort());
    const decided = new Set([
      ...Object.keys(ANON_EXECUTABLE),
      ...Object.keys(AUTHENTICATED_DEFINER),
      ...Object.keys(SERVER_ONLY),
    ]);
    expect(rows.map((r) => r.fn).filter((fn) => !decided.has(fn))).toEqual([]);
  });
});

describe("schema private: internal helpers", () => {
  it("no API role may use the schema or execute anything in it, not even the secret key", async () => {
    const usage = await db().sql(
      `select r.role from unnest($1::text[]) r(role) where has_schema_privilege(r.role, 'private', 'USAGE')`,
      [API_ROLES],
    );
    expect(usage).toEqual([]);
    const executable = await db().sql(
      `select p.oid::regprocedure::text as fn, r.role
         from pg_proc p cross join unnest($1::text[]) r(role)
        where p.pronamespace = 'private'::regnamespace and has_function_privilege(r.role, p.oid, 'EXECUTE')
        order by 1, 2`,
      [API_ROLES],
    );
    expect(executable).toEqual([]);
    const publicGrant = await db().sql(
      `select p.oid::regprocedure::text as fn from pg_proc p
        where p.pronamespace = 'private'::regnamespace
          and exists (select 1 from aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
                       where a.grantee = 0 and a.privilege_type = 'EXECUTE')`,
    );
    expect(publicGrant).toEqual([]);
  });

  it("holds the helpers that move money, write the log, send mail, guard, draw and protect players", async () => {
    const helpers = [
      "setting(text)",
      "log_activity(text,uuid,jsonb)",
      "queue_mail(uuid,text,text,text)",
      "create_account_rows(uuid)",
      "account_row(uuid)",
      "post_ledger(uuid,text,numeric,text,text,numeric,numeric,integer)",
      "handle_new_user()",
      "grant_invited_super_admin()",
      "sync_profile_email()",
      "forbid_ledger_change()",
      "require_user()",
      "require_admin()",
      "require_super_admin()",
      "is_service_role()",
      "format_gbp(numeric)",
      "display_name(text)",
      "ticket_numbers_text(integer[])",
      "entry_ticket_numbers(uuid)",
      "ticket_hold_time()",
      "random_ticket_number(integer)",
      "check_chosen_numbers(competitions,integer[])",
      "lucky_dip_numbers(competitions,uuid,integer,integer[])",
      "take_ticket_numbers(competitions,uuid,integer,integer[])",
      "ticket_number_page(competitions,uuid,integer,integer)",
      "admin_competition_row(uuid)",
      "competition_row(uuid)",
      "competition_apply(competitions,jsonb)",
      "competition_apply_fields(competitions,jsonb)",
      "is_pounds(numeric)",
      "is_return_path(text)",
      "lock_competition_for_entry(uuid)",
      "answer_is_correct(competitions,text)",
      "draw_pick(bigint,integer)",
      "draw_derive(bytea,uuid,bytea,bytea,integer)",
      "draw_derive_prizes(bytea,uuid,bytea,bytea,integer,integer)",
      "ordinal(integer)",
      "competition_set_prizes(uuid,boolean,jsonb)",
      "competition_prizes_of(uuid)",
      "won_prize_title(uuid)",
      "instant_win_derive(bytea,uuid,integer,integer)",
      "instant_win_list_text(uuid,bytea,integer)",
      "instant_win_publish(competitions,bytea)",
      "instant_wins_row(uuid,boolean)",
      "award_instant_wins(uuid)",
      "draw_ticket_list_hash(uuid)",
      "draw_competition(uuid,text)",
      "competition_phase(competitions,timestamp with time zone)",
      "prize_step_index(text)",
      "prize_move(uuid,text,text)",
      "month_start(timestamp with time zone)",
      "top_up_bonus(numeric)",
      "csv_field(text)",
      "raise_refusal(text,text)",
      "protections_of(uuid)",
      "needs_limit_prompt(player_protections,uuid)",
      "protection_state(player_protections)",
      "play_block(uuid)",
      "month_topped_up(uuid)",
      "month_spent(uuid)",
      "top_up_quote(uuid,numeric)",
      "protections_row(uuid)",
      "may_receive_marketing(uuid)",
      "enter_competition_for(uuid,uuid,integer,text,integer[])",
      "require_server()",
      "require_approved(user_account_data,text)",
      "approval_refusal(user_account_data,text)",
      "require_visible_competition(competitions)",
      "payment_lock(text)",
      "apply_top_up_refund(bigint)",
      "require_within_card_cap(uuid,numeric)",
      "start_block(uuid,text,timestamp with time zone)",
      "ledger_filter_check(text)",
      "add_working_days(timestamp with time zone,integer)",
      "uk_postcode(text)",
      "public_name(text,boolean)",
      "stamp_parity(numeric,integer)",
      "ticket_bundles(competitions)",
      "default_postal_deadline(timestamp with time zone)",
      "entry_list_open(competitions)",
      "competition_apply_fair_play(competitions,jsonb)",
      "competition_check_dates(competitions)",
      "ticket_list_lines(uuid,integer,integer)",
      "ticket_list_hash_v2(uuid)",
      "entry_list_competition(text)",
      "entry_list_rows(uuid,integer,integer,integer,boolean)",
      "complaint_row(complaints)",
      "admin_complaint_row(complaints)",
      "activity_filter_check(text,text,text,date,date)",
      "activity_rows(text,text,text,date,date,bigint,integer)",
      "activity_refs(uuid,jsonb)",
      "prize_fulfilment_row(uuid)",
      "charity_owed(uuid)",
      "charity_donations_of(uuid)",
      "competition_charity_row(uuid)",
      "competition_set_charity(uuid,competition_status,jsonb)",
      "admin_user_target(uuid,boolean)",
      "refuse_deleted(user_account_data)",
      "admin_user_of(uuid)",
      "admin_user_row(uuid)",
      "mail_compose_check(text,text,uuid,text,text)",
      "new_referral_code()",
      "referral_code_of(uuid)",
      "email_identity(text)",
      "referral_check(text,text)",
      "record_referral()",
      "referral_reason_text(text)",
      "referral_row(referrals)",
      "admin_referral_row(referrals,uuid,text)",
      "settle_referral(uuid)",
      "settle_referral_after_entry()",
      "settle_referral_after_approval()",
      "settings_keys_before_referrals()",
      "setting_checked_before_referrals(text,jsonb)",
      "money_settings_keys_before_referrals()",
      "mail_segment_members(text,uuid)",
      "mail_recipients(text,text,uuid)",
      "mail_render(text,text,text)",
      "mail_campaign_of(uuid)",
      "mail_campaign_sent(uuid,boolean)",
      "settings_keys()",
      "money_settings_keys()",
      "setting_pounds(text,jsonb,text,numeric,numeric)",
      "setting_boolean(text,jsonb,text)",
      "setting_text(text,jsonb,text,integer,integer)",
      "setting_checked(text,jsonb)",
      "settings_keys_core()",
      "setting_checked_core(text,jsonb)",
      "setting_lines(text)",
      "skill_answer_cooldown()",
      "skill_answer_retry_at(uuid,uuid)",
      "london_time_text(timestamp with time zone)",
      "raise_player_flags()",
      "player_flag_of(uuid)",
      "player_intervention_of(uuid)",
      "record_intervention(uuid,uuid,text,text,uuid)",
      "spin_derive(bytea,text,integer,integer[])",
      "current_wheel_id()",
      "wheel_row(bigint)",
      "wheel_json(bigint)",
      "spinner_enabled()",
      "spin_credits_row(uuid)",
      "active_spinner_seed(uuid)",
      "seed_json(spinner_seeds)",
      "seed_row(spinner_seeds)",
      "spin_row(spinner_spins)",
      "spin_json(spinner_spins)",
      "check_client_seed(text)",
      "hex_luminance(text)",
      "contrast_ratio(text,text)",
      "share_competition_gate(uuid)",
      "hold_competition_gate(uuid)",
      "queue_for_competition_counter(uuid)",
      "refuse_unless_open_for_entry(competitions)",
      "session_is_aal2()",
      "two_step_owed()",
      "require_user_first_step()",
      "factors_proven()",
      "fresh_reauthentication(uuid)",
      "visitor_key(text)",
      "visitor_network(text)",
      "two_step_wait(uuid,text)",
      "hook_mfa_verification_attempt(jsonb)",
      "caller_session()",
      "new_recovery_code()",
      "recovery_code_hash(bytea,text)",
      "session_began_with_password()",
      "recovery_open(uuid)",
      "email_code_life()",
      "email_code_address(text)",
      "record_skill_miss(uuid,uuid)",
      "top_up_entry_missed()",
      "marketing_consent_wording()",
      "top_up_left(uuid)",
      "spend_left(uuid)",
      "optional_mail_kinds()",
      "record_marketing_consent(uuid,boolean,text,text)",
      "marketing_consent_row(uuid)",
      "new_unsubscribe_token(uuid)",
      "unsubscribe_url(text,boolean)",
      "mail_render_with_link(text,text,text,text)",
      "month_credited(uuid)",
      "month_held(uuid)",
      "settings_keys_before_promoter()",
      "setting_checked_before_promoter(text,jsonb)",
      "overdue_draws(interval)",
      "payments_needing_person()",
      "last_cron_run()",
      "cron_stale()",
      "raise_alert(text,text,text,text)",
      "raise_ops_alerts()",
      "notification_kinds()",
      "is_service_notification(text)",
      "is_push_service_endpoint(text)",
      "push_wanted(uuid,text)",
      "notify(uuid,text,text,text,text,text)",
      "notify_draw()",
      "notify_prize()",
      "notify_credit()",
      "notify_approval()",
      "notify_complaint()",
      "notify_admins_of_sign_up(uuid)",
      "queue_sign_up_digests_at(timestamp with time zone)",
      "winner_story_json(uuid)",
      "set_winner_story_consent(uuid,boolean,text,text)",
    ];
    const rows = await db().sql<{ fn: string }>(
      `select regexp_replace(replace(p.oid::regprocedure::text, 'public.', ''), '^private\\.', '') as fn
         from pg_proc p where p.pronamespace = 'private'::regnamespace order by 1`,
    );
    expect(rows.map((r) => r.fn)).toEqual([...helpers].sort());
  });
});

describe("style", () => {
  it("every function fixes its search_path (and so every security definer one does)", async () => {
    const rows = await db().sql<{ fn: string; definer: boolean }>(
      `select p.oid::regprocedure::text as fn, p.prosecdef as definer
         from pg_proc p
        where p.pronamespace in ${SCHEMAS}
          and not exists (select 1 from unnest(coalesce(p.proconfig, '{}')) c where c like 'search_path=%')
        order by 1`,
    );
    expect(rows).toEqual([]);
    const [{ n }] = await db().sql<{ n: number }>(
      `select count(*)::int as n from pg_proc where pronamespace in ${SCHEMAS} and prosecdef`,
    );
    expect(n).toBeGreaterThan(10);
  });

  it("every table and function has a comment saying what it is for", async () => {
    const rows = await db().sql(
      `select 'table ' || c.relname as what from pg_class c
        where c.relnamespace in ${SCHEMAS} and c.relkind in ('r', 'p', 'v', 'm')
          and obj_description(c.oid, 'pg_class') is null
       union all
       select 'function ' || p.oid::regprocedure::text from pg_proc p
        where p.pronamespace in ${SCHEMAS} and obj_description(p.oid, 'pg_proc') is null
       order by 1`,
    );
    expect(rows).toEqual([]);
  });
});
