import { describe, expect, it } from "vitest";
import { activitySentence, sentenceText, SENTENCES, type SentenceRow } from "@/lib/activity/sentences";
import type { ActivityRef } from "@/lib/data/admin-console";

// Each kind of activity as the log shows it: names, not ids; pounds, not 1.5; UK times.

const ADMIN = "a0000000-0000-4000-8000-000000000001";
const PLAYER = "b0000000-0000-4000-8000-000000000002";
const FRIEND = "c0000000-0000-4000-8000-000000000003";
const COMPETITION = "d0000000-0000-4000-8000-000000000004";
const DRAW = "e0000000-0000-4000-8000-000000000005";
const ENTRY = "f0000000-0000-4000-8000-000000000006";
const TOP_UP = "10000000-0000-4000-8000-000000000007";
const COMPLAINT = "20000000-0000-4000-8000-000000000008";
const REFERRAL = "30000000-0000-4000-8000-000000000009";

const ref = (r: Partial<ActivityRef> & Pick<ActivityRef, "id" | "kind">): ActivityRef => ({
  name: null,
  competition_id: null,
  user_id: null,
  user_name: null,
  amount: null,
  numbers: null,
  ...r,
});

/** Every record a row may name, as admin_list_activity's refs return them. */
const REFS: ActivityRef[] = [
  ref({ id: PLAYER, kind: "user", name: "Jo Player", user_id: PLAYER, user_name: "Jo Player" }),
  ref({ id: FRIEND, kind: "user", name: "Fran Friend", user_id: FRIEND, user_name: "Fran Friend" }),
  ref({ id: COMPETITION, kind: "competition", name: "Win a Bike", competition_id: COMPETITION }),
  ref({
    id: DRAW,
    kind: "draw",
    name: "Win a Bike",
    competition_id: COMPETITION,
    user_id: PLAYER,
    user_name: "Jo Player",
  }),
  ref({
    id: ENTRY,
    kind: "entry",
    name: "Win a Bike",
    competition_id: COMPETITION,
    user_id: PLAYER,
    user_name: "Jo Player",
    amount: 1.5,
    numbers: [7, 13, 21],
  }),
  ref({ id: TOP_UP, kind: "top_up", user_id: PLAYER, user_name: "Jo Player", amount: 10 }),
  ref({ id: COMPLAINT, kind: "complaint", name: "LC-000042", user_id: PLAYER, user_name: "Jo Player" }),
  ref({ id: REFERRAL, kind: "referral", name: "The inviter was taking a break" }),
];

/** A row of `action` by the admin about `subject`, with these details; every record it may name is known. */
const row = (
  action: string,
  subject: string | null,
  details: Record<string, unknown> = {},
  actor: string | null = ADMIN,
): SentenceRow => ({
  action,
  actor_id: actor,
  actor_name: actor === ADMIN ? "Alex Admin" : actor === PLAYER ? "Jo Player" : null,
  subject_id: subject,
  subject_label: null,
  details,
  refs: REFS,
});

/** One row of each kind SQL records, with the details its SQL writes. */
const EXAMPLES: [SentenceRow, string][] = [
  [
    row("charity.donation_recorded", COMPETITION, { amount: 250, donated_on: "2026-12-07", reference: "GA-1234" }),
    "Alex Admin recorded a donation of £250.00 to the charity partner of Win a Bike, made on 7 December 2026 (reference “GA-1234”).",
  ],
  [
    row("competition.cancelled", COMPETITION, { reason: "Prize withdrawn", refunded_entries: 3, refunded_total: 4.5 }),
    "Alex Admin cancelled Win a Bike: “Prize withdrawn”. 3 entries refunded, £4.50 in all.",
  ],
  [
    row("competition.closed", COMPETITION, { tickets: 0 }, null),
    "Win a Bike closed with no tickets sold, so there was nothing to draw.",
  ],
  [row("competition.created", COMPETITION, { title: "Win a Bike" }), "Alex Admin created Win a Bike."],
  [
    row(
      "competition.drawn",
      COMPETITION,
      { draw_id: DRAW, winning_number: 13, tickets: 300, trigger: "close_time" },
      null,
    ),
    "Win a Bike was drawn (close time): ticket #13 of 300 tickets won, held by Jo Player.",
  ],
  [
    row("competition.entered", COMPETITION, { entry_id: ENTRY, quantity: 3, amount: 1.5, user_id: PLAYER }, PLAYER),
    "Jo Player entered Win a Bike with 3 tickets (#7, #13, #21) for £1.50.",
  ],
  [
    row(
      "competition.instant_win",
      COMPETITION,
      { instant_win_id: 4, ticket_number: 21, kind: "credit", user_id: PLAYER },
      PLAYER,
    ),
    "Jo Player won an instant prize in Win a Bike with ticket #21: credit.",
  ],
  [
    row("competition.instant_win_delivered", COMPETITION, { instant_win_id: 4 }),
    "Alex Admin marked an instant-win prize in Win a Bike as delivered.",
  ],
  [
    row("competition.instant_wins_set", COMPETITION, { prizes: 2, instant_wins: 5 }),
    "Alex Admin set 5 instant wins in 2 prizes for Win a Bike.",
  ],
  [
    row("competition.postal_entry", COMPETITION, { entry_id: ENTRY, user_id: PLAYER, first_ticket: 7, tickets: 3 }),
    "Alex Admin recorded a postal entry for Jo Player in Win a Bike: 3 tickets (#7, #13, #21).",
  ],
  [
    row("competition.published", COMPETITION, {
      external_randomness: "drand",
      instant_wins: true,
      closes_at: "2026-03-29T00:30:00Z",
      postal_deadline: "2026-03-31T22:59:00Z",
      draw_at: "2026-04-01T18:00:00Z",
    }),
    "Alex Admin published Win a Bike: it closes 29 Mar 2026, 00:30 GMT, takes postal entries until 31 Mar 2026, 23:59 BST and is drawn 1 Apr 2026, 19:00 BST, with randomness from drand, with instant wins.",
  ],
  [
    row("competition.updated", COMPETITION, { fields: ["title", "ticket_price"] }),
    "Alex Admin edited Win a Bike: title, ticket price.",
  ],
  [
    row("complaint.acknowledged", COMPLAINT, { reference: "LC-000042" }),
    "Alex Admin acknowledged complaint LC-000042.",
  ],
  [
    row("complaint.resolved", COMPLAINT, { reference: "LC-000042" }),
    "Alex Admin sent the final answer to complaint LC-000042.",
  ],
  [row("complaint.submitted", COMPLAINT, { reference: "LC-000042" }, PLAYER), "Jo Player made complaint LC-000042."],
  [
    row("mail.sent", "40000000-0000-4000-8000-00000000000a", {
      kind: "marketing",
      segment: "competition_entrants",
      competition_id: COMPETITION,
      subject: "Last day to enter",
      recipients: 120,
    }),
    "Alex Admin sent “Last day to enter” (marketing) to 120 players: the entrants of Win a Bike.",
  ],
  [
    row("marketing.unsubscribed", PLAYER, { mail_id: 99 }, null),
    "Jo Player unsubscribed from marketing e-mail with the link in one of our mails.",
  ],
  [
    row("prize.claimed", DRAW, { choice: "cash", user_id: PLAYER }, PLAYER),
    "Jo Player claimed the prize of Win a Bike: cash chosen.",
  ],
  [
    row("prize.fulfilment", DRAW, {
      competition_id: COMPETITION,
      from: "claimed",
      to: "verified",
      note_changed: true,
      proof_of_delivery: null,
    }),
    "Alex Admin updated the prize of Win a Bike: claimed to verified, and changed the note.",
  ],
  [
    row("prize.identity_checked", DRAW, {
      competition_id: COMPETITION,
      document_type: "driving_licence",
      document_last_four: "9AB4",
      note: "Checked on a video call",
    }),
    "Alex Admin checked the winner's identity for the prize of Win a Bike: driving licence ending 9AB4 (“Checked on a video call”).",
  ],
  [
    row("prize.identity_checked", DRAW, {
      competition_id: COMPETITION,
      document_type: "passport",
      document_last_four: "1234",
    }),
    "Alex Admin checked the winner's identity for the prize of Win a Bike: passport ending 1234.",
  ],
  [
    row("prize.status_changed", DRAW, { from: "verified", status: "delivered" }),
    "Alex Admin moved the prize of Win a Bike from verified to delivered.",
  ],
  [
    row("profile.initials_only", PLAYER, { initials_only: true }, PLAYER),
    "Jo Player chose to be named by initials only if they win.",
  ],
  [
    row("protection.flag_raised", PLAYER, { flag_id: FRIEND, kind: "limit_reached" }, null),
    "Jo Player was flagged for review: monthly limit reached.",
  ],
  [
    row("protection.flag_reviewed", PLAYER, {
      flag_id: FRIEND,
      kind: "large_top_ups",
      note: "Called, all fine",
      intervention: null,
    }),
    "Alex Admin reviewed the flag “Top-ups over £1,000 in 24 hours” on Jo Player: “Called, all fine”.",
  ],
  [
    row("protection.intervention", PLAYER, {
      intervention_id: FRIEND,
      kind: "contacted",
      note: "Phoned about spending",
      flag_id: null,
    }),
    "Alex Admin recorded “Contacted the player” for Jo Player: “Phoned about spending”.",
  ],
  [
    row("protections.break", PLAYER, { until: "2026-10-25T00:30:00Z" }, PLAYER),
    "Jo Player took a break until 25 Oct 2026, 01:30 BST.",
  ],
  [row("protections.closed", PLAYER, {}, PLAYER), "Jo Player closed their account for good."],
  [row("protections.limit", PLAYER, { limit: 50 }, PLAYER), "Jo Player chose a monthly limit of £50.00."],
  [
    row("protections.self_exclusion", PLAYER, { until: "2026-12-25T12:00:00Z" }, PLAYER),
    "Jo Player excluded themselves until 25 Dec 2026, 12:00 GMT.",
  ],
  [
    row("referral.credited", PLAYER, { referral_id: REFERRAL, referrer_id: FRIEND, amount: 5 }, null),
    "Jo Player and Fran Friend, who invited them, each got £5.00 of referral credit.",
  ],
  [
    row("referral.recorded", PLAYER, { referral_id: REFERRAL, referrer_id: FRIEND, code: "FRAN42" }, null),
    "Jo Player signed up with an invite from Fran Friend (code FRAN42).",
  ],
  [
    row("referral.refused", PLAYER, { referral_id: REFERRAL, referrer_id: FRIEND, reason: "referrer_on_break" }, null),
    "The referral of Jo Player by Fran Friend was refused: the inviter was taking a break.",
  ],
  [
    row("spinner.postal_request", PLAYER, { grant_id: 3, reference: "SP-0003" }),
    "Alex Admin recorded a LabSpinner postal request (SP-0003) for Jo Player: one spin credit.",
  ],
  [
    row("spinner.prize", PLAYER, { spin_id: 8, segment: 2, label: "Big win", prize_credits: 2.5 }, PLAYER),
    "Jo Player won “Big win” on LabSpinner: £2.50 of credit.",
  ],
  [
    row("spinner.wheel_updated", null, { wheel_id: 2, previous_wheel_id: 1, segments: [{}, {}, {}, {}] }),
    "Alex Admin changed the LabSpinner wheel (4 segments).",
  ],
  [
    row("system.alert_acknowledged", null, { alert_id: 5, kind: "draw_overdue", incident: "draw:1" }),
    "Alex Admin acknowledged the alert “Draw overdue”.",
  ],
  [
    row("system.mail_retried", PLAYER, { mail_id: 12, kind: "receipt", error: "SMTP timeout" }),
    "Alex Admin queued a failed mail to Jo Player again (it had failed: “SMTP timeout”).",
  ],
  [
    row("system.payment_resolved", TOP_UP, { kind: "owed", reference: "pi_123", note: "Refunded by hand" }),
    "Alex Admin resolved a payment needing a person (owed pi_123): “Refunded by hand”.",
  ],
  [
    row("top_up.created", TOP_UP, { amount: 10, provider: "stripe" }, PLAYER),
    "Jo Player started a top-up of £10.00 (Stripe).",
  ],
  [
    row("top_up.credited", TOP_UP, { amount: 10, bonus: 1, funding: "debit", was: "pending" }, null),
    "Jo Player's top-up of £10.00 was credited with a £1.00 bonus (debit card).",
  ],
  [row("top_up.expired", TOP_UP, {}, null), "Jo Player's top-up of £10.00 expired unpaid."],
  [row("top_up.failed", TOP_UP, {}, null), "Jo Player's top-up of £10.00 failed."],
  [
    row("top_up.refunded", TOP_UP, { refund_id: "re_1", amount: 10, bonus: 1, reversed: 11, owed: 0.5 }, null),
    "£10.00 of Jo Player's top-up was refunded: £11.00 of credit taken back, £0.50 still owed.",
  ],
  [
    row("top_up.refused_card_cap", TOP_UP, { amount: 10 }, null),
    "Jo Player's credit-card top-up of £10.00 was refused and refunded: it went over the monthly credit-card cap.",
  ],
  [row("user.approved", PLAYER, {}), "Alex Admin approved Jo Player."],
  [
    row("user.credit_adjusted", PLAYER, {
      amount: -2.5,
      reason: "Goodwill reversed",
      ledger_id: 3,
      balance: { old: 10, new: 7.5 },
    }),
    "Alex Admin took £2.50 from Jo Player: “Goodwill reversed”. Balance £10.00 to £7.50.",
  ],
  [
    row("user.deleted", PLAYER, { cleared: ["name"], kept: ["ledger"], balance: 0 }),
    "Alex Admin deleted the account of Jo Player; their balance was £0.00.",
  ],
  [
    row("user.factor_removed_with_recovery_code", PLAYER, { factor_id: FRIEND, factor_name: "Old phone" }, PLAYER),
    "Jo Player removed the authenticator “Old phone” with a recovery code.",
  ],
  [row("user.recovery_code_refused", PLAYER, {}, PLAYER), "Jo Player entered a wrong recovery code."],
  [row("user.recovery_code_used", PLAYER, { codes_left: 9 }, PLAYER), "Jo Player used a recovery code (9 codes left)."],
  [
    row("user.recovery_codes_created", PLAYER, { codes: 10, voided: 3 }, PLAYER),
    "Jo Player made 10 new recovery codes; 3 unused earlier codes stopped working.",
  ],
  [row("user.rejected", PLAYER, { reason: "Under 18", by: ADMIN }), "Alex Admin rejected Jo Player: “Under 18”."],
  [
    row("user.role_changed", PLAYER, { role: { old: "user", new: "admin" } }),
    "Alex Admin changed the role of Jo Player from player to admin.",
  ],
  [row("user.signed_up", PLAYER, { email: "jo@example.com" }, null), "Jo Player signed up as jo@example.com."],
  [
    row("user.super_admin_accepted", PLAYER, { email: "jo@example.com", invited_at: "2026-07-01T09:00:00Z" }, null),
    "Jo Player accepted the invitation to be super admin sent to jo@example.com on 1 Jul 2026, 10:00 BST.",
  ],
  [
    row("user.super_admin_invited", null, { email: "owner@example.com", another: false }, null),
    "The setup script (npm run setup:admin) invited owner@example.com to be the super admin.",
  ],
  [row("user.two_step_enrolled", PLAYER, {}, PLAYER), "Jo Player set up two-step verification."],
  [row("user.two_step_reset", PLAYER, {}), "Alex Admin reset the two-step verification of Jo Player."],
  [
    row("user.two_step_reset", PLAYER, { recovery_codes_voided: 9 }),
    "Alex Admin reset the two-step verification of Jo Player; 9 unused recovery codes stopped working.",
  ],
  [
    row("user.updated", PLAYER, {
      name: { old: "Jo P", new: "Jo Player" },
      kyc_status: { old: "none", new: "verified" },
    }),
    "Alex Admin changed Jo Player's name from “Jo P” to “Jo Player”, identity check from none to verified.",
  ],
  [
    row("winner_story.consent_given", DRAW, { consent: true }, PLAYER),
    "Jo Player consented to their photo and quote being published for Win a Bike.",
  ],
  [
    row("winner_story.consent_recorded", DRAW, { consent: true, note: "Signed form" }),
    "Alex Admin recorded that the winner of Win a Bike consented to their photo and quote: “Signed form”.",
  ],
  [
    row("winner_story.consent_withdrawn", DRAW, { consent: false }, PLAYER),
    "Jo Player withdrew consent to their photo and quote for Win a Bike.",
  ],
  [
    row("winner_story.published", DRAW, { photo: true, photo_replaced: false, quote: true }),
    "Alex Admin published the winner's photo and quote for Win a Bike.",
  ],
  [
    row("winner_story.removed", DRAW, { photo: true }),
    "Alex Admin removed the winner's photo and quote for Win a Bike.",
  ],
  [
    row("settings.approval_mode", null, { approval_mode: { old: "manual", new: "auto" } }),
    "Alex Admin changed the approval mode from manual to automatic.",
  ],
  [
    row("settings.launch_at", null, { launch_at: "2026-06-01T17:00:00Z" }),
    "Alex Admin set the launch countdown to 1 Jun 2026, 18:00 BST.",
  ],
  [
    row("settings.top_up_min", null, { top_up_min: { old: 5, new: 2.5 } }),
    "Alex Admin changed the top-up minimum from £5.00 to £2.50.",
  ],
  [
    row("settings.spinner_enabled", null, { spinner_enabled: { old: false, new: true } }),
    "Alex Admin turned LabSpinner on.",
  ],
  [
    row("settings.bonus_tiers", null, { bonus_tiers: { old: [], new: [{ from: 20, percent: 5 }] } }),
    "Alex Admin changed the bonus tiers.",
  ],
];

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
/** What a sentence must never show: ids, JSON, nulls, raw numbers of pounds. */
const RAW = [UUID, /\bnull\b/, /\bundefined\b/, /NaN/, /\[object/, /[{}[\]]/, /_id\b/];

describe("activity sentences", () => {
  it("write one sentence for each kind SQL records", () => {
    const written = new Set(EXAMPLES.map(([r]) => r.action));
    // Every kind with a sentence of its own has its example here.
    expect(Object.keys(SENTENCES).filter((k) => !written.has(k))).toEqual([]);
  });

  it.each(EXAMPLES.map(([r, expected]) => [r.action, r, expected] as const))("%s", (_, r, expected) => {
    expect(sentenceText(activitySentence(r))).toBe(expected);
  });

  it("link each record to its admin page: a user, a competition, an entry's buyer, a draw's competition", () => {
    const entered = activitySentence(EXAMPLES.find(([r]) => r.action === "competition.entered")![0]);
    expect(entered).toEqual([
      { text: "Jo Player", href: `/admin/users/${PLAYER}` },
      " entered ",
      { text: "Win a Bike", href: `/admin/competitions/${COMPETITION}` },
      " with ",
      { text: "3 tickets (#7, #13, #21)", href: `/admin/users/${PLAYER}` },
      " for £1.50.",
    ]);
    const claimed = activitySentence(row("prize.claimed", DRAW, { choice: "prize", user_id: PLAYER }, PLAYER));
    expect(claimed).toContainEqual({ text: "Win a Bike", href: `/admin/competitions/${COMPETITION}` });
    const complaint = activitySentence(row("complaint.acknowledged", COMPLAINT, { reference: "LC-000042" }));
    expect(complaint).toContainEqual({ text: "LC-000042", href: `/admin/complaints/${COMPLAINT}` });
  });

  it("name a draw's winner only when they have an account (a postal entrant may not)", () => {
    const drawn = row(
      "competition.drawn",
      COMPETITION,
      { draw_id: DRAW, winning_number: 2, tickets: 9, trigger: "sold_out" },
      null,
    );
    const postal = REFS.map((r) => (r.id === DRAW ? { ...r, user_id: null, user_name: null } : r));
    expect(sentenceText(activitySentence({ ...drawn, refs: postal }))).toBe(
      "Win a Bike was drawn (sold out): ticket #2 of 9 tickets won.",
    );
  });

  it("write amounts in pounds and pence", () => {
    const entered = row("competition.entered", COMPETITION, {
      entry_id: ENTRY,
      quantity: 1,
      amount: 1.5,
      user_id: PLAYER,
    });
    expect(sentenceText(activitySentence(entered))).toMatch(/ for £1\.50\.$/);
    const adjusted = row("user.credit_adjusted", PLAYER, {
      amount: 1250,
      reason: "Prize",
      balance: { old: 0, new: 1250 },
    });
    expect(sentenceText(activitySentence(adjusted))).toBe(
      "Alex Admin gave £1,250.00 to Jo Player: “Prize”. Balance £0.00 to £1,250.00.",
    );
  });

  it("write times in the UK, with GMT or BST, across both clock changes", () => {
    const breakUntil = (until: string) =>
      sentenceText(activitySentence(row("protections.break", PLAYER, { until }, PLAYER)));
    // 29 March 2026: 01:00 GMT becomes 02:00 BST.
    expect(breakUntil("2026-03-29T00:30:00Z")).toBe("Jo Player took a break until 29 Mar 2026, 00:30 GMT.");
    expect(breakUntil("2026-03-29T01:30:00Z")).toBe("Jo Player took a break until 29 Mar 2026, 02:30 BST.");
    // 25 October 2026: 02:00 BST becomes 01:00 GMT, so 01:30 happens twice and the zone tells them apart.
    expect(breakUntil("2026-10-25T00:30:00Z")).toBe("Jo Player took a break until 25 Oct 2026, 01:30 BST.");
    expect(breakUntil("2026-10-25T01:30:00Z")).toBe("Jo Player took a break until 25 Oct 2026, 01:30 GMT.");
  });

  it("never show an id, JSON or null when the records are gone or the details are missing", () => {
    for (const [r] of EXAMPLES) {
      const gone = { ...r, refs: [], actor_name: r.actor_id ? null : r.actor_name };
      const bare = { ...gone, details: {} };
      for (const variant of [gone, bare]) {
        const said = sentenceText(activitySentence(variant));
        for (const raw of RAW) expect(said, `${r.action}: ${said}`).not.toMatch(raw);
        expect(said, r.action).toMatch(/^[A-Z£].*\.$/);
      }
    }
    const gone = row(
      "competition.entered",
      COMPETITION,
      { entry_id: ENTRY, quantity: 2, amount: 3, user_id: PLAYER },
      null,
    );
    expect(sentenceText(activitySentence({ ...gone, refs: [] }))).toBe(
      "An unknown player entered a competition that no longer exists with 2 tickets for £3.00.",
    );
  });

  it("write a kind newer than this build as its label, by whom and about what, without its details", () => {
    const later = { ...row("widget.made_new", PLAYER, { widget_id: FRIEND, size: null }), subject_label: "Jo Player" };
    expect(sentenceText(activitySentence(later))).toBe("Widget made new, by Alex Admin, about Jo Player.");
    expect(sentenceText(activitySentence({ ...later, actor_id: null, subject_id: null }))).toBe("Widget made new.");
  });
});
