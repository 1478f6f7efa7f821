-- ============================================================================
-- Types: enums and composite types the areas share.
-- The live definition of this area: change it here, then `npm run db:migration -- <name>`
-- writes the migration (README "Changing the database"). Loaded after the files before it.
-- ============================================================================

create type public.user_role as enum ('user', 'admin', 'super_admin');
comment on type public.user_role is 'An account''s role: a player, an admin, or a super admin (who also manages admins).';

create type public.kyc_status as enum ('none', 'pending', 'verified', 'rejected');
comment on type public.kyc_status is 'Where an account''s identity check stands.';

create type public.mail_status as enum ('queued', 'sent', 'failed');
comment on type public.mail_status is 'Where a message of the mail outbox stands.';

create type public.ledger_kind as enum ('top_up', 'bonus', 'entry', 'refund', 'top_up_reversal', 'admin_adjustment', 'spinner_prize', 'debit', 'instant_win');
comment on type public.ledger_kind is 'What moved credit: each row of the credit ledger has one.';

create type public.competition_status as enum ('draft', 'live', 'sold_out', 'closed', 'drawn', 'cancelled');
comment on type public.competition_status is 'A competition''s stored status: draft -> live -> sold_out / closed -> drawn, or cancelled.';

create type public.entry_kind as enum ('paid', 'postal');
comment on type public.entry_kind is 'How an entry was made: paid with credit, or the free postal route.';

create type public.ticket_numbering as enum ('in_order', 'pick');
comment on type public.ticket_numbering is 'How a competition numbers its online tickets: in purchase order, or chosen by the player (a grid or a lucky dip). Set before publishing, fixed after.';

create type public.ticket_number_page as (sold integer[], held integer[], mine integer[], mine_expires_at timestamp with time zone);
comment on type public.ticket_number_page is 'A page of a pick competition''s number grid (get_ticket_numbers): the numbers sold and held by others in the range, and the caller''s own basket (all of it) with when it expires.';

create type public.entry_status as enum ('active', 'refunded', 'void');
comment on type public.entry_status is 'Whether an entry''s tickets still count.';

create type public.draw_trigger as enum ('sold_out', 'close_time', 'draw_time');
comment on type public.draw_trigger is 'What made a draw happen.';

create type public.prize_status as enum ('awaiting_claim', 'claimed', 'verified', 'delivered');
comment on type public.prize_status is 'A prize''s fulfilment step: awaiting_claim -> claimed -> verified -> delivered.';

create type public.top_up_status as enum ('pending', 'credited', 'failed', 'expired', 'refused_card_cap', 'refunded', 'partially_refunded');
comment on type public.top_up_status is 'Where a top-up stands with the payment provider.';

create type public.break_kind as enum ('break', 'self_exclusion', 'closed');
comment on type public.break_kind is 'What stops a player playing: a break, self-exclusion, or a closed account.';

create type public.complaint_status as enum ('received', 'acknowledged', 'resolved');
comment on type public.complaint_status is 'Where a complaint stands.';

create type public.flag_kind as enum ('limit_reached', 'limit_raises', 'large_top_ups', 'top_up_after_break');
comment on type public.flag_kind is 'The sign of possible harm a player protection flag records.';

create type public.flag_status as enum ('open', 'reviewed');
comment on type public.flag_status is 'Whether an admin has reviewed a player protection flag.';

create type public.intervention_kind as enum ('note', 'contacted', 'restricted', 'lifted', 'closed');
comment on type public.intervention_kind is 'What an admin did about a player''s protection.';

create type public.winner_summary as (draw_id uuid, competition_id uuid, slug text, title text, prize_description text, prize_value numeric(12,2), image text, winner_display_name text, winner_town text, winning_number integer, ticket_count integer, drawn_at timestamp with time zone, prize_status public.prize_status, delivered_at timestamp with time zone, story jsonb);
comment on type public.winner_summary is 'One draw as the public winners page lists it (list_winners), with the winner''s photo and quote only while they consent.';

create type public.complaint as (id uuid, reference text, status public.complaint_status, subject text, related_reference text, details text, acknowledge_by timestamp with time zone, respond_by timestamp with time zone, acknowledged_at timestamp with time zone, resolved_at timestamp with time zone, response text, created_at timestamp with time zone);
comment on type public.complaint is 'A complaint as its player sees it: reference, status, deadlines and our answer.';

create type public.admin_complaint as (id uuid, reference text, status public.complaint_status, subject text, related_reference text, details text, acknowledge_by timestamp with time zone, respond_by timestamp with time zone, acknowledged_at timestamp with time zone, resolved_at timestamp with time zone, response text, created_at timestamp with time zone, user_id uuid, email text, name text, overdue boolean);
comment on type public.admin_complaint is 'A complaint as the admin queue lists it: the player''s fields, the complainant and whether a deadline has passed unanswered.';

create type public.admin_complaint_detail as (id uuid, reference text, status public.complaint_status, subject text, related_reference text, details text, acknowledge_by timestamp with time zone, respond_by timestamp with time zone, acknowledged_at timestamp with time zone, resolved_at timestamp with time zone, response text, created_at timestamp with time zone, user_id uuid, email text, name text, overdue boolean, handled_by_name text);
comment on type public.admin_complaint_detail is 'One complaint for an admin: the queue''s fields and who handled it.';

create type public.protection_state as enum ('active', 'break', 'self_exclusion', 'closed');
comment on type public.protection_state is 'What a player may do now: play (active), or not during a break or self-exclusion, or ever again (closed).';

create type public.protections as (monthly_limit numeric, pending_limit numeric, pending_limit_from timestamp with time zone, month_topped_up numeric, month_credited numeric, month_held numeric, month_spent numeric, monthly_remaining numeric, state public.protection_state, break_until timestamp with time zone, closed_at timestamp with time zone, limit_increase_delay_hours numeric);
comment on type public.protections is 'A player''s protections: the monthly limit (and a pending increase), this month''s figures, what is left, and their state.';

create type public.consent_source as enum ('sign_up', 'profile', 'unsubscribe_link', 'not_asked');
comment on type public.consent_source is 'Where a marketing consent choice was made; not_asked: set off by a migration for an account that was never asked.';

create type public.marketing_consent as (given boolean, at timestamp with time zone, wording text, source public.consent_source);
comment on type public.marketing_consent is 'A player''s marketing consent now: given, and the time, wording and source of their last choice (null when none is recorded).';

create type public.mail_kind as enum ('marketing', 'service');
comment on type public.mail_kind is 'What a mail campaign is: marketing (needs consent, held back during breaks) or a service notice.';

create type public.mail_segment as enum ('all_players', 'competition_entrants', 'no_recent_entry');
comment on type public.mail_segment is 'Who a mail campaign is for.';

create type public.mail_transport as enum ('smtp', 'outbox');
comment on type public.mail_transport is 'How a message left: by SMTP, or kept in the outbox (no SMTP_URL).';

create type public.alert_kind as enum ('draw_overdue', 'cron_stale', 'webhook_failing', 'payment_needs_person', 'webhook_refused');
comment on type public.alert_kind is 'What an operations alert is about.';

create type public.webhook_status as enum ('handled', 'failed', 'mismatch');
comment on type public.webhook_status is 'What became of a payment provider''s event.';

create type public.payment_issue as enum ('mismatch', 'owed');
comment on type public.payment_issue is 'A payment that needs a person: one that does not match its top-up, or money owed after a refund.';

create type public.prize_choice as enum ('prize', 'cash');
comment on type public.prize_choice is 'What a winner chose: the prize, or its cash alternative.';

create type public.payment_provider as enum ('stripe', 'test');
comment on type public.payment_provider is 'Who took a top-up''s payment: Stripe, or the labelled test checkout.';

create type public.card_funding as enum ('debit', 'credit', 'prepaid', 'wallet', 'unknown');
comment on type public.card_funding is 'How the card that paid a top-up is funded (credit cards are refused).';

create type public.auth_refusal as enum ('sign_in', 'sign_in_limited', 'code', 'code_limited');
comment on type public.auth_refusal is 'A refused sign-in or two-step code, and whether a rate limit refused it.';

create type public.account as (id uuid, name text, email text, email_notifications boolean, date_of_birth date, town text, show_initials_only boolean, credits numeric(12,2), role public.user_role, approved boolean, approved_at timestamp with time zone, approved_by uuid, rejected_at timestamp with time zone, rejection_reason text, total_spent numeric(12,2), total_entries integer, kyc_status public.kyc_status, is_verified boolean, verified_at timestamp with time zone, age_verified boolean, metadata jsonb, created_at timestamp with time zone);
comment on type public.account is 'A user''s profile merged with their account data (spec §3).';

create type public.my_account as (id uuid, name text, email text, email_notifications boolean, date_of_birth date, town text, show_initials_only boolean, credits numeric(12,2), role public.user_role, approved boolean, approved_at timestamp with time zone, approved_by uuid, rejected_at timestamp with time zone, rejection_reason text, total_spent numeric(12,2), total_entries integer, kyc_status public.kyc_status, is_verified boolean, verified_at timestamp with time zone, age_verified boolean, metadata jsonb, created_at timestamp with time zone, two_step_owed boolean, welcome_due boolean);
comment on type public.my_account is 'The caller''s own account (public.account''s fields), whether the session owes its second step, and whether the "You''re approved" welcome is due.';

create type public.approval_state as enum ('approved', 'pending', 'rejected', 'deleted');
comment on type public.approval_state is 'Where an account stands as the admin screens show it, derived (private.admin_user_of): deleted, else approved, else rejected, else pending.';

create type public.admin_user as (id uuid, name text, email text, role public.user_role, approval public.approval_state, kyc_status public.kyc_status, credits numeric(12,2), created_at timestamp with time zone, deleted_at timestamp with time zone, open_flags bigint);
comment on type public.admin_user is 'One user as the admin users list shows them: approval is approved, pending, rejected or deleted; open_flags counts the flags awaiting review.';

create type public.player_intervention as (id uuid, user_id uuid, kind public.intervention_kind, note text, flag_id uuid, created_at timestamp with time zone, created_by_name text);
comment on type public.player_intervention is 'One intervention on a player as the admin screens show it, with the name of who recorded it.';

create type public.spinner_seed as (id bigint, server_seed_hash text, client_seed text, next_nonce integer, created_at timestamp with time zone, revealed_at timestamp with time zone, server_seed text);
comment on type public.spinner_seed is 'A LabSpinner seed pair as its player sees it: the server seed (hex) only once the pair is revealed.';

create type public.top_up_outcome as (status public.top_up_status, top_up_id uuid);
comment on type public.top_up_outcome is 'A top-up''s status after fail_top_up.';

create type public.factor_proof as (factors_proven boolean, inbox_confirmed boolean);
comment on type public.factor_proof is 'For the two-step page: every verified factor proven, and an inbox code confirmed in the last fifteen minutes.';

create type public.open_alert as (id bigint, kind public.alert_kind, subject text, raised_at timestamp with time zone);
comment on type public.open_alert is 'An alert no super admin has acknowledged yet, as the console''s notice shows it.';

create type public.spinner_segment as (position smallint, label text, colour text, label_colour text, prize_credits numeric(12,2), weight integer, probability numeric);
comment on type public.spinner_segment is 'One segment of a LabSpinner wheel version: position 1..n clockwise from the top, probability = weight / total weight (6 decimals).';

create type public.spinner_wheel as (wheel_id bigint, total_weight bigint, expected_prize numeric, segments public.spinner_segment[]);
comment on type public.spinner_wheel is 'One LabSpinner wheel version: its segments in position order, the total weight and the prize a spin pays on average (credits, 4 decimals).';

create type public.live_spinner_wheel as (wheel_id bigint, total_weight bigint, expected_prize numeric, segments public.spinner_segment[], enabled boolean);
comment on type public.live_spinner_wheel is 'The live wheel (public.spinner_wheel''s fields) and whether LabSpinner is on.';

create type public.spin_credits as (ticket_spend numeric, earned integer, granted integer, used integer, earned_available integer, postal_available integer, available integer, spend_per_spin integer, toward_next numeric, to_next numeric);
comment on type public.spin_credits is 'A player''s spin credits: net ticket spend, credits earned (1 per £10), postal grants, spins used, what is available of each, and the spend toward the next credit.';

create type public.refusal as (code text, message text);
comment on type public.refusal is 'Why something is refused: a stable code (lib/data/errors.ts) and its words.';

create type public.spinner_spin as (id bigint, seed_id bigint, client_seed text, nonce integer, wheel_id bigint, attempt integer, value bigint, segment_position smallint, label text, prize_credits numeric(12,2), created_at timestamp with time zone);
comment on type public.spinner_spin is 'One LabSpinner spin: the seed pair, client seed and nonce it used, the wheel version, the rejection-sampling attempt, the derived value, the segment and the prize paid.';

create type public.my_spinner as (enabled boolean, credits public.spin_credits, block public.refusal, seed public.spinner_seed, balance numeric(12,2), recent_spins public.spinner_spin[]);
comment on type public.my_spinner is 'The caller''s LabSpinner state: on/off, spin credits, what blocks play (or null), the active seed pair, balance and the last 10 spins.';

create type public.admin_spinner_wheel as (wheel_id bigint, total_weight bigint, expected_prize numeric, segments public.spinner_segment[], created_at timestamp with time zone, created_by_email text);
comment on type public.admin_spinner_wheel is 'The live wheel for the admin screen: public.spinner_wheel''s fields, when it was saved and by whom.';

create type public.spinner_observed as (position smallint, count bigint);
comment on type public.spinner_observed is 'Spins that landed on one segment of the live wheel.';

create type public.spinner_version as (wheel_id bigint, created_at timestamp with time zone, created_by_email text, spins bigint);
comment on type public.spinner_version is 'One wheel version: when and by whom it was saved, and the spins made on it.';

create type public.spinner_grant as (id bigint, user_id uuid, email text, reference text, created_at timestamp with time zone, created_by_email text);
comment on type public.spinner_grant is 'One postal LabSpinner request recorded by an admin (the free route), with the player''s and the admin''s e-mail.';

create type public.admin_spinner as (enabled boolean, wheel public.admin_spinner_wheel, observed public.spinner_observed[], spins bigint, versions public.spinner_version[], recent_grants public.spinner_grant[]);
comment on type public.admin_spinner is 'The LabSpinner admin screen: on/off, the live wheel, spins per segment and in all on it, the last 10 versions and the last 20 postal grants.';

create type public.player_spin_grant as (id bigint, reference text, created_at timestamp with time zone);
comment on type public.player_spin_grant is 'One postal request recorded for a player, as their admin page lists it.';

create type public.player_spins as (credits public.spin_credits, spins public.spinner_spin[], grants public.player_spin_grant[]);
comment on type public.player_spins is 'One player''s spin credits, last 20 spins and last 20 postal grants (the admin''s user page).';

create type public.dispute_resolution_body as (name text, url text);
comment on type public.dispute_resolution_body is 'The independent dispute-resolution body complaints can be escalated to: its name and web address.';

create type public.promoter as (name text, address text[]);
comment on type public.promoter is 'Who runs the promotion, with an address, one line each (CAP code 8.17).';

create type public.site_settings as (launch_at text, stamp_price numeric, postal_address text[], complaints_contact text, dispute_resolution_body public.dispute_resolution_body, spinner_enabled boolean, promoter public.promoter);
comment on type public.site_settings is 'The settings every visitor may see: the launch moment (ISO in UTC, or null), the stamp price, the postal address (lines), the complaints contact, the dispute-resolution body, the LabSpinner switch and the promoter.';

create type public.approval_mode as enum ('manual', 'auto');
comment on type public.approval_mode is 'How new accounts are approved: manual (an admin approves each) or auto (approved as they sign up); the approval_mode setting holds one.';

create type public.approval_mode_setting as (approval_mode public.approval_mode);
comment on type public.approval_mode_setting is 'The approval mode, as the approvals screen reads and sets it.';

create type public.admin_ledger_row as (id bigint, kind public.ledger_kind, amount numeric(12,2), balance_after numeric(12,2), reason text, reference text, created_at timestamp with time zone, created_by_name text);
comment on type public.admin_ledger_row is 'One credit-ledger row as the admin''s user page shows it, with the name of who posted it (null for the system).';

create type public.admin_ledger_page as (rows public.admin_ledger_row[], next_before bigint);
comment on type public.admin_ledger_page is 'One page of a user''s credit ledger, newest first; next_before is the id to pass for the next page, or null on the last.';

create type public.spin_result as (id bigint, seed_id bigint, client_seed text, nonce integer, wheel_id bigint, attempt integer, value bigint, segment_position smallint, label text, prize_credits numeric(12,2), created_at timestamp with time zone, server_seed_hash text, balance numeric(12,2), credits public.spin_credits);
comment on type public.spin_result is 'A spin just made (public.spinner_spin''s fields), the hash of the server seed it used, the balance after its prize and the spin credits left.';

create type public.seed_rotation as (revealed public.spinner_seed, seed public.spinner_seed);
comment on type public.seed_rotation is 'A rotation: the pair just revealed (its server seed shown) and the new active pair.';

create type public.spin_reveal as (spin public.spinner_spin, revealed public.spinner_seed, wheel public.spinner_wheel, seed public.spinner_seed);
comment on type public.spin_reveal is 'One of the caller''s spins with its seed pair revealed, the wheel version it used and the active pair after: what the browser recomputes the spin from.';

create type public.spin_request as (grant_id bigint, user_id uuid, reference text, credits public.spin_credits);
comment on type public.spin_request is 'A postal LabSpinner request just recorded, and the player''s spin credits after it.';

create type public.entry_quote as (balance numeric(12,2), approved boolean, rejected boolean, held integer, cap_left integer, tickets_left integer, costs numeric[], shortfalls numeric[], skill_retry_at timestamp with time zone, block public.refusal);
comment on type public.entry_quote is 'What the competition page shows a signed-in player before entering: balance, approval, tickets held, what the cap and the tickets left allow, costs[i] and shortfalls[i] for i + 1 tickets, until when a wrong skill answer closes the question, and what stops them playing now (or null).';

create type public.entry_competition as (id uuid, slug text, title text, status public.competition_status, image text, closes_at timestamp with time zone, total_tickets integer, tickets_sold integer);
comment on type public.entry_competition is 'The competition of one of the caller''s entries, as their entries page shows it (its first image).';

create type public.entry_draw as (id uuid, winning_number integer, drawn_at timestamp with time zone, won boolean, prize_description text, cash_alternative numeric(12,2), prize_choice public.prize_choice, prize_status public.prize_status);
comment on type public.entry_draw is 'The draw of an entry''s competition: whether this entry won, the prize and its cash alternative, and for the winning entry the claim choice; the prize''s progress.';

create type public.my_entry as (entry_id uuid, kind public.entry_kind, quantity integer, amount numeric(12,2), status public.entry_status, created_at timestamp with time zone, ticket_numbers integer[], competition public.entry_competition, draw public.entry_draw);
comment on type public.my_entry is 'One of the caller''s entries with its ticket numbers (ascending), its competition and the draw once drawn (or null).';

create type public.prize_competition as (id uuid, slug text, title text, image text);
comment on type public.prize_competition is 'The competition a prize was won in, as the prizes page shows it (its first image).';

create type public.my_prize_story as (consent boolean, consent_source text, consent_changed_at timestamp with time zone, published boolean);
comment on type public.my_prize_story is 'A winner''s own view of their photo and quote: whether they consent, who recorded it and when, and whether anything is published.';

create type public.my_prize as (draw_id uuid, competition public.prize_competition, prize_description text, prize_value numeric(12,2), cash_alternative numeric(12,2), winning_number integer, drawn_at timestamp with time zone, prize_status public.prize_status, prize_choice public.prize_choice, delivery_address text, claimed_at timestamp with time zone, verified_at timestamp with time zone, delivered_at timestamp with time zone, proof_of_delivery text, story public.my_prize_story);
comment on type public.my_prize is 'One of the caller''s prizes: the prize and its cash alternative, the claim, each step''s date, the proof reference once delivered, and their consent to a published photo and quote (null until first given).';

create type public.my_dashboard as (needs_limit_prompt boolean, unclaimed_prizes text[]);
comment on type public.my_dashboard is 'get_my_dashboard(): the account dashboard''s own facts beside the account row the proxy already read.';

create type public.ledger_row as (id bigint, kind public.ledger_kind, amount numeric(12,2), balance_after numeric(12,2), reason text, reference text, created_at timestamp with time zone);
comment on type public.ledger_row is 'One row of the caller''s credit ledger, as their credits page shows it.';

create type public.ledger_totals as (count bigint, credits_in numeric, credits_out numeric, net numeric);
comment on type public.ledger_totals is 'Totals of a ledger filter: rows, credits in, credits out (a positive figure) and net = in - out.';

create type public.ledger_page as (rows public.ledger_row[], next_before bigint, totals public.ledger_totals);
comment on type public.ledger_page is 'One page of the caller''s credit ledger, newest first (next_before is the id to pass for the next page, or null on the last), with the totals of the whole filter.';

create type public.instant_win_kind as enum ('credit', 'spin', 'physical');
comment on type public.instant_win_kind is 'What an instant-win prize is: credit (an amount), a LabSpinner spin, or a physical prize an admin delivers.';

create type public.instant_win_award as (ticket_number integer, kind public.instant_win_kind, prize text, credit_amount numeric(12,2));
comment on type public.instant_win_award is 'An instant win one entry''s ticket won as it was made: the ticket, the prize''s kind and title, its credit (credit prizes only).';

create type public.postal_entry_recorded as (entry_id uuid, ticket_numbers integer[], tickets integer, instant_wins public.instant_win_award[]);
comment on type public.postal_entry_recorded is 'admin_record_postal_entry(): the new postal entry, its ticket numbers and how many, and the instant wins they won.';

create type public.instant_win_to_deliver as (id uuid, competition_title text, slug text, prize text, kind public.instant_win_kind, ticket_number integer, display_name text, user_id uuid, email text, postal_name text, postal_address text, status text, won_at timestamp with time zone, delivered_at timestamp with time zone);
comment on type public.instant_win_to_deliver is 'An instant win an admin delivers by hand: the competition, the prize and its kind, the ticket, who won it with their e-mail or the letter''s name and address, its status and dates.';

create type public.admin_user_page as (rows public.admin_user[], next_cursor text);
comment on type public.admin_user_page is 'One page of the admin users list, newest first; next_cursor is what to pass for the next page, or null on the last.';

create type public.admin_user_profile as (id uuid, name text, email text, role public.user_role, approval public.approval_state, kyc_status public.kyc_status, credits numeric(12,2), created_at timestamp with time zone, deleted_at timestamp with time zone, open_flags bigint, date_of_birth date, town text, email_notifications boolean, approved_at timestamp with time zone, approved_by_name text, rejected_at timestamp with time zone, rejection_reason text, total_spent numeric(12,2), total_entries integer, verified_at timestamp with time zone);
comment on type public.admin_user_profile is 'One user on their admin page: public.admin_user''s fields, their profile, who approved them and when, the rejection, totals and verification.';

create type public.admin_user_entry as (id uuid, competition_id uuid, competition_title text, kind public.entry_kind, quantity integer, amount numeric(12,2), status public.entry_status, first_ticket integer, last_ticket integer, created_at timestamp with time zone);
comment on type public.admin_user_entry is 'One of a user''s entries on their admin page, with its competition and first and last ticket numbers.';

create type public.admin_user_activity as (id bigint, action text, created_at timestamp with time zone, details jsonb, actor_id uuid, actor_name text, role text);
comment on type public.admin_user_activity is 'One activity-log row about or by a user on their admin page; role says which (subject or actor).';

create type public.admin_user_detail as ("user" public.admin_user_profile, protections public.protections, entries public.admin_user_entry[], activity public.admin_user_activity[], large_adjustment_threshold numeric);
comment on type public.admin_user_detail is 'One user''s admin page: the user, their limits and breaks, the 50 latest entries, the 20 latest activity rows and the large-adjustment threshold.';

create type public.flag_player as (id uuid, name text, email text);
comment on type public.flag_player is 'The player a flag is about: their name (Deleted user once anonymised) and e-mail.';

create type public.player_flag as (id uuid, "user" public.flag_player, kind public.flag_kind, details jsonb, raised_at timestamp with time zone, status public.flag_status, reviewed_at timestamp with time zone, reviewed_by_name text, review_note text, intervention_kind public.intervention_kind);
comment on type public.player_flag is 'One player-protection flag as the admin screens show it: the player, kind, what the SQL saw (details, per kind), when raised, and its review (who, when, the note, the intervention recorded with it).';

create type public.player_protection_record as (restricted_at timestamp with time zone, flags public.player_flag[], interventions public.player_intervention[]);
comment on type public.player_protection_record is 'One player''s protection record: restricted since when (or null), their 50 latest flags and 50 latest interventions.';

create type public.competition_ref as (id uuid, title text);
comment on type public.competition_ref is 'A competition referred to by its id and title.';

create type public.person_ref as (id uuid, name text);
comment on type public.person_ref is 'A person referred to by their id and name.';

create type public.top_up_quote as (amount numeric, bonus numeric, credit numeric, balance_after numeric, min numeric, max numeric, bonus_enabled boolean, monthly_limit numeric, monthly_remaining numeric, refusal public.refusal);
comment on type public.top_up_quote is 'What a top-up of an amount would give the player (amount, bonus, credit, balance after; null when the amount is not valid), the bounds, the monthly limit and what is left of it, and the refusal (or null).';

create type public.bonus_tier as ("from" numeric, percent numeric);
comment on type public.bonus_tier is 'One bonus tier: top-ups from this amount get this percent as bonus.';

create type public.top_up_options as (min numeric, max numeric, quick_picks integer[], bonus_enabled boolean, bonus_tiers public.bonus_tier[], monthly_limit numeric, monthly_remaining numeric, pending_limit numeric, pending_limit_from timestamp with time zone, needs_limit_prompt boolean, blocked public.refusal);
comment on type public.top_up_options is 'What the top-up page needs: bounds, quick picks, bonus tiers, the monthly limit, what is left and a pending increase, whether to invite a limit, and what blocks a top-up now (or null).';

create type public.top_up_entry as (entry_id uuid, ticket_numbers integer[], competition_slug text);
comment on type public.top_up_entry is 'The entry a top-up made for its purpose: its id, ticket numbers and competition.';

create type public.my_top_up as (id uuid, status public.top_up_status, amount numeric, bonus numeric, credit numeric, funding public.card_funding, provider public.payment_provider, balance numeric, created_at timestamp with time zone, credited_at timestamp with time zone, refusal_reason text, refusal_reason_code text, purpose jsonb, entry public.top_up_entry, entry_error public.refusal);
comment on type public.my_top_up is 'The owner''s top-up: status, amounts, funding, the balance now, why it was refused, its purpose {competition_id, quantity, answer}, and the entry it made or why that failed.';

create type public.credit_adjustment as (ledger_id bigint, amount numeric, balance numeric);
comment on type public.credit_adjustment is 'An admin''s credit adjustment: its ledger row, the amount and the player''s new balance.';

create type public.notification as (id bigint, kind text, title text, body text, link text, created_at timestamp with time zone, read_at timestamp with time zone);
comment on type public.notification is 'One notification as the notification centre shows it.';

create type public.notification_page as (items public.notification[], unread bigint);
comment on type public.notification_page is 'A page of the caller''s notifications, newest first, and how many are unread.';

create type public.push_settings as (kinds text[], endpoints text[]);
comment on type public.push_settings is 'The notification kinds the caller has pushed and the endpoints of their subscribed browsers.';

create type public.referral_code_check as (code text);
comment on type public.referral_code_check is 'An invite code that may be used, as stored (upper case, no spaces or dashes).';

create type public.referrals_settled as (checked integer);
comment on type public.referrals_settled is 'How many pending referrals the cron looked at.';

create type public.referral as (id uuid, status text, reason text, reason_text text, amount numeric, created_at timestamp with time zone, decided_at timestamp with time zone);
comment on type public.referral is 'One referral without names: its state, why it was refused (code and words), the credit and when.';

create type public.my_referrals as (code text, credit numeric, joined bigint, credited bigint, credited_total numeric, friends public.referral[], invited public.referral);
comment on type public.my_referrals is 'The caller''s invite code, the referral credit, how many friends joined and were credited (and the total), the latest 50 referrals, and their own invite (or null).';

create type public.admin_referral as (id uuid, status text, reason text, reason_text text, amount numeric, created_at timestamp with time zone, decided_at timestamp with time zone, user_id uuid, name text);
comment on type public.admin_referral is 'One referral as an admin sees it: public.referral''s fields and the other player (id and name).';

create type public.user_referrals as (code text, referred_by public.admin_referral, referred public.admin_referral[]);
comment on type public.user_referrals is 'A player''s invite code, who invited them (or null) and whom they invited, newest first.';

create type public.flags_raised as (raised integer);
comment on type public.flags_raised is 'How many new player-protection flags the cron raised.';

create type public.users_approved as (approved public.person_ref[], skipped integer);
comment on type public.users_approved is 'The accounts a bulk approval approved (id and name) and how many it skipped.';

create type public.marketing_unsubscribed as (unsubscribed boolean);
comment on type public.marketing_unsubscribed is 'An unsubscribe link was used: always true (a bad or used link raises).';

create type public.ops_cron_check as (state text, last_run_at timestamp with time zone);
comment on type public.ops_cron_check is 'Whether the scheduled job runs: ok, waiting (never ran, not yet due), stale or failing, and when it last ran.';

create type public.ops_check as (cron public.ops_cron_check, mail text);
comment on type public.ops_check is 'The public health check''s states (no counts): the scheduled job, and mail (ok or failing).';

create type public.cron_run as (id bigint, started_at timestamp with time zone, finished_at timestamp with time zone, ok boolean, result jsonb, error text);
comment on type public.cron_run is 'One run of the scheduled job: when, whether it worked, what it did (result) or why it failed.';

create type public.deep_health as (overdue_draws bigint, oldest_overdue_draw_at timestamp with time zone, mail_queued bigint, oldest_queued_mail_at timestamp with time zone, mail_failed bigint, webhooks_waiting bigint, payments_needing_person bigint, open_alerts bigint, last_cron_run public.cron_run);
comment on type public.deep_health is 'The deeper health check: queue lengths, the oldest overdue items and the last run of the scheduled job (or null).';

create type public.cron_health as (stale boolean, runs public.cron_run[]);
comment on type public.cron_health is 'Whether the scheduled job is stale, and its latest 20 runs, newest first.';

create type public.overdue_draw as (id uuid, slug text, title text, draw_at timestamp with time zone, overdue_minutes integer);
comment on type public.overdue_draw is 'A competition whose draw time passed with no draw yet, and by how many minutes.';

create type public.payment_needing_person as (kind public.payment_issue, reference text, top_up_id uuid, amount numeric, detail text, since timestamp with time zone, player public.person_ref);
comment on type public.payment_needing_person is 'A payment a person must deal with: an amount mismatch (by event id) or money owed after a refund (by top-up), since when, and the player (or null).';

create type public.mail_failure as (id bigint, to_email text, kind text, subject text, attempts integer, error text, created_at timestamp with time zone);
comment on type public.mail_failure is 'A mail that failed for good: to whom, what, how many attempts and the last error.';

create type public.mail_health as (queued bigint, failed bigint, failures public.mail_failure[]);
comment on type public.mail_health is 'Mail waiting and failed, and the latest 50 failures, newest first.';

create type public.auth_refusal_hour as (hour timestamp with time zone, sign_in integer, sign_in_limited integer, code integer, code_limited integer);
comment on type public.auth_refusal_hour is 'Refused sign-ins and two-step codes in one hour, and those refused for the rate limit.';

create type public.storage_use as (database_bytes bigint, image_count bigint, image_bytes numeric);
comment on type public.storage_use is 'The database''s size and the competition images stored (how many, how many bytes).';

create type public.ops_alert as (id bigint, kind public.alert_kind, incident text, subject text, detail text, raised_at timestamp with time zone, acknowledged_at timestamp with time zone);
comment on type public.ops_alert is 'An alert as the System page shows it: its kind, incident key, words, when raised and when acknowledged.';

create type public.webhook_refusal_hour as (hour timestamp with time zone, provider text, refusals integer);
comment on type public.webhook_refusal_hour is 'Webhook calls refused for a bad signature in one hour, per provider.';

create type public.mail_campaign as (id uuid, kind public.mail_kind, segment public.mail_segment, competition public.competition_ref, subject text, body_text text, recipients integer, queued bigint, sent bigint, failed bigint, sent_by public.person_ref, created_at timestamp with time zone);
comment on type public.mail_campaign is 'One mail campaign as the mail screen shows it: kind, segment, competition, subject and body, recipients, its outbox rows counted by status, and who sent it (Deleted user once anonymised).';

create type public.mail_campaign_sent as (id uuid, kind public.mail_kind, segment public.mail_segment, competition public.competition_ref, subject text, body_text text, recipients integer, queued bigint, sent bigint, failed bigint, sent_by public.person_ref, created_at timestamp with time zone, already_sent boolean);
comment on type public.mail_campaign_sent is 'A campaign just queued (public.mail_campaign''s fields), and whether it had already been sent by an earlier submit of the same request.';

create type public.mail_outbox_row as (id bigint, to_email text, to_user uuid, to_name text, kind text, subject text, status public.mail_status, transport public.mail_transport, attempts integer, error text, created_at timestamp with time zone, sent_at timestamp with time zone, campaign_id uuid);
comment on type public.mail_outbox_row is 'One outbox row as the mail screen shows it: recipient (and their name), kind, subject, status, transport, attempts, error and times.';

create type public.mail_outbox_page as (rows public.mail_outbox_row[], next_before bigint, campaign public.mail_campaign);
comment on type public.mail_outbox_page is 'One page of the mail outbox, newest first (next_before for the next page, or null on the last), and the campaign filtered by (or null).';

create type public.mail_held_back as (no_consent integer, protected integer);
comment on type public.mail_held_back is 'Members a marketing mail would not reach: without consent, and on a break, excluded or closed (both 0 for a service notice).';

create type public.mail_sample as (name text, email text);
comment on type public.mail_sample is 'The recipient a preview is rendered for.';

create type public.mail_preview as (kind public.mail_kind, segment public.mail_segment, competition public.competition_ref, members integer, recipients integer, held_back public.mail_held_back, subject text, body_text text, sample public.mail_sample, rendered text);
comment on type public.mail_preview is 'What a mail would do: the segment''s members now, who it reaches, who is held back, the subject and body, and the message rendered for the first recipient by name (sample, or null when nobody gets it).';

create type public.activity_row as (id bigint, created_at timestamp with time zone, action text, actor_id uuid, actor_name text, actor_email text, subject_id uuid, subject_kind text, subject_label text, details jsonb);
comment on type public.activity_row is 'One activity-log row as the activity screen shows it: the action, the actor''s name and e-mail, the subject''s kind (user, competition, draw, top_up or complaint) and label, and the details recorded.';

create type public.activity_page as (rows public.activity_row[], next_before bigint, kinds text[]);
comment on type public.activity_page is 'One page of the activity log, newest first (next_before for the next page, or null on the last), and every action recorded so far, for the kind filter.';

create type public.activity_csv_chunk as (csv text, next_before bigint, done boolean);
comment on type public.activity_csv_chunk is 'One chunk of the activity log as CSV, newest first: its lines (the header in the first chunk only), the id to pass as p_before for the next chunk (null on the last) and whether it is the last chunk.';

create type public.dashboard_counts as (players bigint, approved_players bigint, pending_approvals bigint, live_competitions bigint, opening_soon bigint, awaiting_draw bigint, open_complaints bigint, overdue_complaints bigint, flagged_players bigint);
comment on type public.dashboard_counts is 'The dashboard''s counts: players, approved players, accounts awaiting approval, competitions by phase (live, opening soon, awaiting the draw), open and overdue complaints, and players with a flag awaiting review.';

create type public.dashboard_day as (day date, signups bigint, tickets bigint, credit_sold numeric);
comment on type public.dashboard_day is 'One Europe/London day of the dashboard: sign-ups, paid tickets sold and credit bought (top-ups, pounds).';

create type public.dashboard_totals as (signups numeric, tickets numeric, credit_sold numeric);
comment on type public.dashboard_totals is 'The dashboard''s days added up.';

create type public.admin_dashboard as (generated_at timestamp with time zone, "from" date, "to" date, counts public.dashboard_counts, days public.dashboard_day[], totals public.dashboard_totals);
comment on type public.admin_dashboard is 'Every figure of the admin dashboard: when it was worked out, the first and last day of the series (today last), the counts, the 30 days and their totals.';

create type public.competition_draw as (id uuid, algorithm text, winning_number integer, winner_display_name text, winner_town text, ticket_count integer, drawn_at timestamp with time zone, story jsonb);
comment on type public.competition_draw is 'A competition''s draw as its pages show it: the algorithm, the winning number, the winner''s public name and town, how many tickets, when, and the winner''s published photo and quote (jsonb, or null without consent).';

create type public.competition as (id uuid, slug text, title text, summary text, description text, prize_description text, prize_value numeric(12,2), cash_alternative numeric(12,2), images text[], ticket_price numeric(12,2), total_tickets integer, tickets_sold integer, tickets_left integer, max_tickets_per_user integer, ticket_numbering public.ticket_numbering, opens_at timestamp with time zone, closes_at timestamp with time zone, postal_deadline timestamp with time zone, draw_at timestamp with time zone, postal_entries bigint, postal_tickets integer, postal_tickets_per_entry integer, stamp_price numeric, entry_list_open boolean, status public.competition_status, is_open boolean, skill_question text, skill_options text[], seed_commitment text, external_randomness jsonb, published_at timestamp with time zone, closed_at timestamp with time zone, cancelled_at timestamp with time zone, cancel_reason text, draw public.competition_draw);
comment on type public.competition is 'A competition as the public pages show it: never the skill answer; the effective postal deadline and draw time (the defaults in a draft), postal entries and stamp parity, whether it is open, the seed commitment and the draw once drawn.';

create type public.ticket_bundle as (tickets integer, cost numeric);
comment on type public.ticket_bundle is 'A quick pick one person may buy now (1, 5, 10 or 25 tickets) and its cost in pounds.';

create type public.competition_page as (id uuid, slug text, title text, summary text, description text, prize_description text, prize_value numeric(12,2), cash_alternative numeric(12,2), images text[], ticket_price numeric(12,2), total_tickets integer, tickets_sold integer, tickets_left integer, max_tickets_per_user integer, ticket_numbering public.ticket_numbering, opens_at timestamp with time zone, closes_at timestamp with time zone, postal_deadline timestamp with time zone, draw_at timestamp with time zone, postal_entries bigint, postal_tickets integer, postal_tickets_per_entry integer, stamp_price numeric, entry_list_open boolean, status public.competition_status, is_open boolean, skill_question text, skill_options text[], seed_commitment text, external_randomness jsonb, published_at timestamp with time zone, closed_at timestamp with time zone, cancelled_at timestamp with time zone, cancel_reason text, draw public.competition_draw, my_tickets integer[], bundles public.ticket_bundle[]);
comment on type public.competition_page is 'One competition''s page: public.competition''s fields, the caller''s ticket numbers (null when signed out) and the ticket bundles they may buy now.';

create type public.admin_competition as (id uuid, slug text, title text, summary text, description text, prize_description text, prize_value numeric(12,2), cash_alternative numeric(12,2), images text[], ticket_price numeric(12,2), total_tickets integer, tickets_sold integer, tickets_left integer, max_tickets_per_user integer, ticket_numbering public.ticket_numbering, opens_at timestamp with time zone, closes_at timestamp with time zone, postal_deadline timestamp with time zone, draw_at timestamp with time zone, postal_entries bigint, postal_tickets integer, postal_tickets_per_entry integer, stamp_price numeric, entry_list_open boolean, status public.competition_status, is_open boolean, skill_question text, skill_options text[], seed_commitment text, external_randomness jsonb, published_at timestamp with time zone, closed_at timestamp with time zone, cancelled_at timestamp with time zone, cancel_reason text, draw public.competition_draw, skill_answer text, created_by uuid, created_at timestamp with time zone, updated_at timestamp with time zone, entry_count bigint, postal_entry_count bigint, revenue numeric, prize_status public.prize_status, prize_choice public.prize_choice);
comment on type public.admin_competition is 'A competition as the admin calls answer it: public.competition''s fields restated, then the skill answer, who created it and when, when it last changed, its active entries and postal entries, their revenue, and the prize''s status and the winner''s choice once drawn.';

create type public.competition_cancelled as (competition public.admin_competition, refunded_entries integer, refunded_total numeric(12,2));
comment on type public.competition_cancelled is 'A cancellation: the cancelled competition, and how many paid entries were refunded to credit and for how much.';

create type public.competition_stored_dates as (postal_deadline timestamp with time zone, draw_at timestamp with time zone);
comment on type public.competition_stored_dates is 'A competition''s postal deadline and draw time as stored: null in a draft means the default at publish.';

create type public.competition_figures as (online_tickets integer, postal_tickets integer, paid_entries bigint, postal_entries bigint, players bigint, revenue numeric, refunded_entries bigint, refunded_total numeric, void_postal_entries bigint);
comment on type public.competition_figures is 'A competition''s figures on its admin page: online and postal tickets, active paid and postal entries, players, revenue, refunds and void postal entries.';

create type public.postal_entry_record as (entry_id uuid, name text, address text, postcode text, user_id uuid, email text, answer text, tickets integer, ticket_numbers integer[], status public.entry_status, recorded_by text, created_at timestamp with time zone);
comment on type public.postal_entry_record is 'One postal entry on its competition''s admin page: the letter''s name, address and answer, the linked account''s e-mail, its tickets and their numbers, and who recorded it.';

create type public.fulfilment_competition as (id uuid, slug text, title text);
comment on type public.fulfilment_competition is 'The competition a prize to fulfil belongs to.';

create type public.fulfilment_story as (consent boolean, consent_source text, consent_note text, consent_changed_at timestamp with time zone, consent_changed_by text, photo_path text, photo_alt text, quote text, story_updated_at timestamp with time zone);
comment on type public.fulfilment_story is 'A winner''s photo consent (how it was given, by whom, when) and what is published, as the admin sees it.';

create type public.prize_fulfilment as (draw_id uuid, competition public.fulfilment_competition, prize_description text, prize_value numeric(12,2), cash_alternative numeric(12,2), winning_number integer, drawn_at timestamp with time zone, winner_display_name text, winner_town text, winner_user_id uuid, winner_name text, winner_email text, winner_address text, route text, prize_choice public.prize_choice, delivery_address text, claimed_at timestamp with time zone, prize_status public.prize_status, prize_status_updated_at timestamp with time zone, verified_at timestamp with time zone, delivered_at timestamp with time zone, fulfilment_note text, proof_of_delivery text, prize_cost numeric(12,2), winner_initials_only boolean, story public.fulfilment_story);
comment on type public.prize_fulfilment is 'One draw''s prize fulfilment for admins: the prize, the winner (name, e-mail or postal address, route), the claim, the status with its times, the note, the proof of delivery, the prize''s cost and the winner''s photo consent and story.';

create type public.admin_competition_detail as (competition public.admin_competition, stored_dates public.competition_stored_dates, figures public.competition_figures, postal_entries public.postal_entry_record[], fulfilment public.prize_fulfilment);
comment on type public.admin_competition_detail is 'One competition''s admin page: the competition, its stored dates, its figures, every postal entry and, once drawn, the prize fulfilment.';

create type public.competition_history_row as (id uuid, slug text, title text, status public.competition_status, closes_at timestamp with time zone, draw_at timestamp with time zone, finished_at timestamp with time zone, ticket_price numeric(12,2), total_tickets integer, tickets_sold integer, postal_tickets integer, revenue numeric, refunded_total numeric, prize_value numeric(12,2), cash_alternative numeric(12,2), prize_choice public.prize_choice, prize_status public.prize_status, draw_id uuid, winner_display_name text, prize_cost numeric, net numeric);
comment on type public.competition_history_row is 'One finished competition (drawn, closed or cancelled) in the admin history: its dates, tickets, revenue, refunds, prize cost (drawn only) and net.';

create type public.competition_history_totals as (competitions integer, revenue numeric, refunded_total numeric, prize_cost numeric, net numeric);
comment on type public.competition_history_totals is 'The admin history''s totals over every finished competition.';

create type public.competition_history as (rows public.competition_history_row[], totals public.competition_history_totals);
comment on type public.competition_history is 'The admin history: finished competitions, most recently finished first, and their totals.';

create type public.prize_status_change as (draw_id uuid, prize_status public.prize_status, prize_status_updated_at timestamp with time zone);
comment on type public.prize_status_change is 'A prize moved to a status: the draw, its status and when it last changed.';

create type public.instant_win_delivered as (id uuid, status text, delivered_at timestamp with time zone);
comment on type public.instant_win_delivered is 'An instant win marked delivered: its id, status and when.';

create type public.drawn_competition as (competition_id uuid, draw_id uuid);
comment on type public.drawn_competition is 'A competition the draw cron drew, and its draw.';

create type public.due_draws as (drawn public.drawn_competition[], closed uuid[]);
comment on type public.due_draws is 'What one run of the draw cron did: the competitions it drew and those it closed for want of tickets.';

create type public.entry_list_summary as (id uuid, slug text, title text, status public.competition_status, closes_at timestamp with time zone, postal_deadline timestamp with time zone, draw_at timestamp with time zone, total_tickets integer, tickets_sold integer, postal_tickets integer);
comment on type public.entry_list_summary is 'The competition an entry list belongs to: its dates and ticket counts.';

create type public.entry_list_draw as (id uuid, algorithm text, ticket_list_hash text);
comment on type public.entry_list_draw is 'The draw over an entry list: its algorithm and the hash of the ticket list it drew from.';

create type public.entry_list_row as (number integer, ticket_id uuid, entrant text, town text, route text);
comment on type public.entry_list_row is 'One ticket of a public entry list: its number and id, the entrant''s public name and town (or "Postal entry"), and its route (online or postal).';

create type public.entry_list_page as (competition public.entry_list_summary, draw public.entry_list_draw, ticket_count integer, rows public.entry_list_row[], has_before boolean, has_after boolean);
comment on type public.entry_list_page is 'One page of a public entry list: the competition, its draw once drawn, every ticket''s count, the page''s rows and whether there are pages before and after.';

create type public.instant_win_prize as (position integer, kind public.instant_win_kind, title text, credit_amount numeric(12,2), quantity integer, won bigint);
comment on type public.instant_win_prize is 'One instant-win prize of a competition, in the order its numbers are dealt: its kind, title, credit amount (credit only), how many and how many are won.';

create type public.instant_win as (ticket_number integer, winning_number integer, prize_position integer, prize text, display_name text, ticket_id uuid, won_at timestamp with time zone);
comment on type public.instant_win is 'One instant win so far: the ticket, the winning number it matched, the prize and the winner''s public name.';

create type public.instant_win_number as (slot integer, number integer, prize_position integer);
comment on type public.instant_win_number is 'One winning number, revealed after the draw: its slot in the derivation and the prize it carries.';

create type public.competition_instant_wins as (commitment text, algorithm text, ticket_count integer, prizes public.instant_win_prize[], wins public.instant_win[], seed_hex text, numbers public.instant_win_number[]);
comment on type public.competition_instant_wins is 'A competition''s instant wins: the commitment, algorithm and ticket count, the prizes, the wins so far, and after the draw the seed and every winning number (null before).';

create type public.csv_chunk as (csv text, last_number integer, done boolean);
comment on type public.csv_chunk is 'One chunk of a CSV read in ticket order: its lines (the header in the first chunk only), the last ticket number in it (null when empty) and whether it is the last chunk.';

create type public.prize_claim as (draw_id uuid, prize_choice public.prize_choice, claimed_at timestamp with time zone, prize_status public.prize_status, delivery_address text);
comment on type public.prize_claim is 'A winner''s claim: prize or cash, when, the prize''s status and the address to send it to (null for cash).';

create type public.story_consent as (draw_id uuid, consent boolean);
comment on type public.story_consent is 'A winner''s consent to publishing their photo and quote, as it now stands.';

create type public.story_change as (draw_id uuid, previous_photo text);
comment on type public.story_change is 'A winner''s story published, replaced or removed: the photo it replaced or removed (null if none), which the caller deletes from the bucket.';
