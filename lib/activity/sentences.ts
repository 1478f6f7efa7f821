import type { ActivityRef, ActivityRow } from "@/lib/data/admin-console";
import { enumLabel, type EnumName } from "@/lib/labels";
import { formatDate, formatDateTimeZoned, formatGBP } from "@/lib/format";
import { SETTING_LABELS } from "@/lib/settings/settings-fields";
import { activityKindLabel } from "./kinds";

// Each row of the activity log as one sentence: who did what to whom, with names (never ids), amounts in
// pounds and times in the UK. The screen renders the parts, linking each record to its admin page; the CSV
// writes the same sentence as text. The names come with the row (admin_list_activity's refs), so a page is
// one query. A kind with no sentence here still reads as its label (a unit test lists SQL's kinds).

/** A piece of a sentence: words, or a record's name with its admin page. */
export type SentencePart = string | { text: string; href: string };

/** What a sentence is written from: the row as admin_list_activity and admin_activity_export return it. */
export type SentenceRow = Pick<
  ActivityRow,
  "action" | "actor_id" | "actor_name" | "subject_id" | "subject_label" | "details" | "refs"
>;

type Parts = SentencePart | SentencePart[] | null | undefined | false;

/** A sentence from a template: each value is words, a linked record, or nothing. */
function say(strings: TemplateStringsArray, ...values: Parts[]): SentencePart[] {
  const parts: SentencePart[] = [];
  const add = (part: SentencePart) => {
    const last = parts.at(-1);
    if (typeof part === "string" && typeof last === "string") parts[parts.length - 1] = last + part;
    else if (part) parts.push(part);
  };
  strings.forEach((words, i) => {
    add(words);
    const value = values[i];
    if (value) (Array.isArray(value) ? value : [value]).forEach(add);
  });
  return parts;
}

/** The sentence as plain text (the CSV's details column, a link's accessible context). */
export const sentenceText = (parts: SentencePart[]) => parts.map((p) => (typeof p === "string" ? p : p.text)).join("");

const userHref = (id: string) => `/admin/users/${id}`;
const competitionHref = (id: string) => `/admin/competitions/${id}`;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v.trim() : null);
const num = (v: unknown): number | null => {
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
};
/** £1.50, never 1.5; a missing amount says so. */
const pounds = (v: unknown) => {
  const n = num(v);
  return n === null ? "an unknown amount" : formatGBP(n);
};
const quoted = (v: unknown) => (text(v) ? `“${text(v)}”` : null);
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-GB")} ${n === 1 ? one : many}`;
const lowerFirst = (words: string) => words.charAt(0).toLowerCase() + words.slice(1);
const label = (set: EnumName, v: unknown) => (text(v) ? enumLabel(set, text(v)!) : "unknown");
const when = (v: unknown) => {
  const at = text(v);
  return at && !Number.isNaN(Date.parse(at)) ? formatDateTimeZoned(at) : null;
};
/** A calendar day recorded as YYYY-MM-DD, as "on 7 December 2026". */
const day = (v: unknown) => {
  const on = text(v);
  return on && /^\d{4}-\d{2}-\d{2}$/.test(on) && !Number.isNaN(Date.parse(on)) ? `on ${formatDate(on)}` : null;
};
/** The old and new value of a change recorded as {old, new}. */
const change = (v: unknown) => (isRecord(v) ? { old: v.old, new: v.new } : { old: undefined, new: undefined });

/** Ticket numbers as a person reads them: "ticket #7", "3 tickets (#7, #13, #21)", "25 tickets from #1". */
export function ticketWords(quantity: number | null, numbers: readonly number[] | null): string {
  const known = numbers ?? [];
  const count = quantity ?? known.length;
  if (count === 1 && known.length === 1) return `ticket #${known[0]}`;
  if (known.length === 0) return plural(count, "ticket");
  if (known.length >= count) return `${plural(count, "ticket")} (${known.map((n) => `#${n}`).join(", ")})`;
  return `${plural(count, "ticket")} from #${known[0]}`;
}

/** The words for one row: its records looked up by id, each linked to its admin page. */
class Row {
  readonly d: Record<string, unknown>;
  private readonly refs: Map<string, ActivityRef>;

  constructor(readonly row: SentenceRow) {
    this.d = row.details;
    this.refs = new Map(row.refs.map((r) => [r.id, r]));
  }

  ref(id: unknown, ...kinds: ActivityRef["kind"][]): ActivityRef | null {
    const found = typeof id === "string" ? this.refs.get(id) : undefined;
    return found && kinds.includes(found.kind) ? found : null;
  }

  /** Who acted: their name linked to their page, or who acts when no one is signed in. */
  actor(nobody = "LabCash"): SentencePart {
    if (!this.row.actor_id) return nobody;
    return { text: this.row.actor_name ?? "A deleted account", href: userHref(this.row.actor_id) };
  }

  /** A user by id (a user ref, or the user a draw, entry, top-up or complaint concerns). */
  user(id: unknown, unknown = "an unknown player"): SentencePart {
    const r = this.ref(id, "user", "draw", "entry", "top_up", "complaint");
    if (!r?.user_id) return unknown;
    return { text: r.user_name ?? "a deleted account", href: userHref(r.user_id) };
  }

  /** The row's subject as a user. */
  subjectUser(unknown?: string) {
    return this.user(this.row.subject_id, unknown);
  }

  /** A competition by id, or the competition a draw or entry belongs to. */
  competition(id: unknown): SentencePart {
    const r = this.ref(id, "competition", "draw", "entry");
    if (!r?.competition_id) return "a competition that no longer exists";
    return { text: r.name ?? "an untitled competition", href: competitionHref(r.competition_id) };
  }

  subjectCompetition() {
    return this.competition(this.row.subject_id);
  }

  /** An entry's tickets, linked to its buyer's page (their entries are listed there). */
  entry(id: unknown, quantity: unknown): SentencePart {
    const r = this.ref(id, "entry");
    const words = ticketWords(num(quantity), r?.numbers ?? null);
    return r?.user_id ? { text: words, href: userHref(r.user_id) } : words;
  }

  /** A top-up's amount: the details' figure, else the top-up's own. */
  topUpAmount(): string {
    return pounds(this.d.amount ?? this.ref(this.row.subject_id, "top_up")?.amount);
  }

  complaint(): SentencePart {
    const r = this.ref(this.row.subject_id, "complaint");
    const reference = r?.name ?? text(this.d.reference) ?? "a complaint";
    return r ? { text: reference, href: `/admin/complaints/${r.id}` } : reference;
  }

  /** A setting's value in words: money in pounds, switches on or off, dates in the UK. */
  settingValue(key: string, value: unknown): string {
    if (value === null || value === undefined) return "nothing";
    if (MONEY_SETTINGS.has(key)) return pounds(value);
    if (typeof value === "boolean") return value ? "on" : "off";
    if (key === "approval_mode") return lowerFirst(label("approval_mode", value));
    if (key === "launch_at") return when(value) ?? "nothing";
    if (typeof value === "number") return value.toLocaleString("en-GB");
    if (typeof value === "string") return `“${value}”`;
    return "a new value";
  }
}

/** The settings whose values are pounds (the rest are counts, switches, words or lists). */
const MONEY_SETTINGS = new Set([
  "top_up_min",
  "top_up_max",
  "credit_card_monthly_cap",
  "large_adjustment_threshold",
  "stamp_price",
  "referral_credit",
]);

function settingSentence(r: Row, key: string): SentencePart[] {
  const name = SETTING_LABELS[key] ?? key.replace(/_/g, " ");
  const { old, new: now } = change(r.d[key]);
  if (now === undefined && key === "launch_at") {
    const at = when(r.d.launch_at);
    return at ? say`${r.actor()} set the launch countdown to ${at}.` : say`${r.actor()} removed the launch countdown.`;
  }
  const scalar = (v: unknown) => v === null || ["string", "number", "boolean"].includes(typeof v);
  // Lists and groups (bonus tiers, the postal address) are named, not spelled out: the CSV keeps them.
  if (!scalar(old) || !scalar(now)) return say`${r.actor()} changed the ${name}.`;
  if (typeof now === "boolean") {
    // "LabSpinner on or off" is switched: "turned LabSpinner on".
    const switched = name.endsWith(" on or off") ? name.slice(0, -" on or off".length) : `the ${name}`;
    return say`${r.actor()} turned ${switched} ${now ? "on" : "off"}.`;
  }
  return say`${r.actor()} changed the ${name} from ${r.settingValue(key, old)} to ${r.settingValue(key, now)}.`;
}

const prizeOf = (r: Row) => say`the prize of ${r.subjectCompetition()}`;

/** Every kind of activity SQL records, as a sentence. */
export const SENTENCES: Record<string, (r: Row) => SentencePart[]> = {
  "charity.donation_recorded": (r) =>
    say`${r.actor()} recorded a donation of ${pounds(r.d.amount)} to the charity partner of ${r.subjectCompetition()}, made ${day(r.d.donated_on) ?? "on an unknown date"}${quoted(r.d.reference) ? ` (reference ${quoted(r.d.reference)})` : ""}.`,
  "competition.cancelled": (r) =>
    say`${r.actor()} cancelled ${r.subjectCompetition()}${r.d.reason ? ": " : ""}${quoted(r.d.reason)}. ${plural(num(r.d.refunded_entries) ?? 0, "entry", "entries")} refunded, ${pounds(r.d.refunded_total ?? 0)} in all.`,
  "competition.closed": (r) =>
    say`${r.subjectCompetition()} closed with no tickets sold, so there was nothing to draw.`,
  "competition.created": (r) => say`${r.actor()} created ${r.subjectCompetition()}.`,
  "competition.drawn": (r) => {
    // A postal entrant without an account wins too: then the winner is not named here.
    const winner = r.ref(r.d.draw_id, "draw")?.user_id ? r.user(r.d.draw_id) : null;
    return say`${r.subjectCompetition()} was drawn (${lowerFirst(label("draw_trigger", r.d.trigger))}): ticket #${String(num(r.d.winning_number) ?? "?")} of ${plural(num(r.d.tickets) ?? 0, "ticket")} won${winner ? ", held by " : ""}${winner}.`;
  },
  "competition.entered": (r) =>
    say`${r.user(r.d.user_id)} entered ${r.subjectCompetition()} with ${r.entry(r.d.entry_id, r.d.quantity)} for ${pounds(r.d.amount)}.`,
  "competition.instant_win": (r) =>
    say`${r.user(r.d.user_id)} won an instant prize in ${r.subjectCompetition()} with ticket #${String(num(r.d.ticket_number) ?? "?")}: ${lowerFirst(label("instant_win_kind", r.d.kind))}.`,
  "competition.instant_win_delivered": (r) =>
    say`${r.actor()} marked an instant-win prize in ${r.subjectCompetition()} as delivered.`,
  "competition.instant_wins_set": (r) =>
    say`${r.actor()} set ${plural(num(r.d.instant_wins) ?? 0, "instant win")} in ${plural(num(r.d.prizes) ?? 0, "prize")} for ${r.subjectCompetition()}.`,
  "competition.postal_entry": (r) =>
    say`${r.actor()} recorded a postal entry for ${r.user(r.d.user_id)} in ${r.subjectCompetition()}: ${r.entry(r.d.entry_id, r.d.tickets)}.`,
  "competition.published": (r) => {
    const source = text(r.d.external_randomness);
    return say`${r.actor()} published ${r.subjectCompetition()}: it closes ${when(r.d.closes_at) ?? "at an unknown time"}, takes postal entries until ${when(r.d.postal_deadline) ?? "an unknown time"} and is drawn ${when(r.d.draw_at) ?? "at an unknown time"}${source ? `, with randomness from ${source}` : ""}${r.d.instant_wins === true ? ", with instant wins" : ""}.`;
  },
  "competition.updated": (r) => {
    const fields = Array.isArray(r.d.fields) ? r.d.fields.filter((f): f is string => typeof f === "string") : [];
    return say`${r.actor()} edited ${r.subjectCompetition()}${fields.length ? `: ${fields.map((f) => f.replace(/_/g, " ")).join(", ")}` : ""}.`;
  },
  "complaint.acknowledged": (r) => say`${r.actor()} acknowledged complaint ${r.complaint()}.`,
  "complaint.resolved": (r) => say`${r.actor()} sent the final answer to complaint ${r.complaint()}.`,
  "complaint.submitted": (r) => say`${r.user(r.row.subject_id, "A player")} made complaint ${r.complaint()}.`,
  "mail.sent": (r) => {
    const to = r.d.competition_id
      ? say`the entrants of ${r.competition(r.d.competition_id)}`
      : lowerFirst(label("mail_segment", r.d.segment));
    return say`${r.actor()} sent “${text(r.d.subject) ?? "a mail"}” (${lowerFirst(label("mail_kind", r.d.kind))}) to ${plural(num(r.d.recipients) ?? 0, "player")}: ${to}.`;
  },
  "marketing.unsubscribed": (r) =>
    say`${r.subjectUser()} unsubscribed from marketing e-mail with the link in one of our mails.`,
  "prize.claimed": (r) =>
    say`${r.user(r.d.user_id ?? r.row.subject_id)} claimed ${prizeOf(r)}: ${lowerFirst(label("prize_choice", r.d.choice))}.`,
  "prize.fulfilment": (r) => {
    const moved = r.d.from !== r.d.to;
    const proof = text(r.d.proof_of_delivery);
    return say`${r.actor()} updated ${prizeOf(r)}${moved ? `: ${lowerFirst(label("prize_status", r.d.from))} to ${lowerFirst(label("prize_status", r.d.to))}` : ""}${r.d.note_changed === true ? ", and changed the note" : ""}${proof ? ` (proof of delivery: “${proof}”)` : ""}.`;
  },
  "prize.identity_checked": (r) => {
    const document = lowerFirst(label("identity_document", r.d.document_type));
    return say`${r.actor()} checked the winner's identity for ${prizeOf(r)}: ${document} ending ${text(r.d.document_last_four) ?? "unknown"}${quoted(r.d.note) ? ` (${quoted(r.d.note)})` : ""}.`;
  },
  "prize.status_changed": (r) =>
    say`${r.actor()} moved ${prizeOf(r)} from ${lowerFirst(label("prize_status", r.d.from))} to ${lowerFirst(label("prize_status", r.d.status))}.`,
  "profile.initials_only": (r) =>
    r.d.initials_only === true
      ? say`${r.subjectUser()} chose to be named by initials only if they win.`
      : say`${r.subjectUser()} chose to be named by first name, initial and town if they win.`,
  "protection.flag_raised": (r) =>
    say`${r.subjectUser()} was flagged for review: ${lowerFirst(label("flag_kind", r.d.kind))}.`,
  "protection.flag_reviewed": (r) =>
    say`${r.actor()} reviewed the flag “${label("flag_kind", r.d.kind)}” on ${r.subjectUser()}${r.d.note ? ": " : ""}${quoted(r.d.note)}.`,
  "protection.intervention": (r) =>
    say`${r.actor()} recorded “${label("intervention_kind", r.d.kind)}” for ${r.subjectUser()}${r.d.note ? ": " : ""}${quoted(r.d.note)}.`,
  "protections.break": (r) => say`${r.subjectUser()} took a break until ${when(r.d.until) ?? "an unknown time"}.`,
  "protections.closed": (r) => say`${r.subjectUser()} closed their account for good.`,
  "protections.limit": (r) =>
    r.d.limit === null || r.d.limit === undefined
      ? say`${r.subjectUser()} asked to remove their monthly limit.`
      : say`${r.subjectUser()} chose a monthly limit of ${pounds(r.d.limit)}.`,
  "protections.self_exclusion": (r) =>
    say`${r.subjectUser()} excluded themselves until ${when(r.d.until) ?? "an unknown time"}.`,
  "referral.credited": (r) =>
    say`${r.subjectUser()} and ${r.user(r.d.referrer_id, "the player who invited them")}, who invited them, each got ${pounds(r.d.amount)} of referral credit.`,
  "referral.recorded": (r) =>
    say`${r.subjectUser()} signed up with an invite from ${r.user(r.d.referrer_id)}${text(r.d.code) ? ` (code ${text(r.d.code)})` : ""}.`,
  "referral.refused": (r) => {
    if (r.d.reason === "referral_code_unknown")
      return say`${r.subjectUser()} signed up with the invite code “${text(r.d.code) ?? ""}”, which is nobody's.`;
    const why = r.ref(r.d.referral_id, "referral")?.name;
    return say`The referral of ${r.subjectUser()} by ${r.user(r.d.referrer_id)} was refused${why ? `: ${lowerFirst(why)}` : ""}.`;
  },
  "spinner.postal_request": (r) =>
    say`${r.actor()} recorded a LabSpinner postal request${text(r.d.reference) ? ` (${text(r.d.reference)})` : ""} for ${r.subjectUser()}: one spin credit.`,
  "spinner.prize": (r) =>
    say`${r.subjectUser()} won “${text(r.d.label) ?? "a prize"}” on LabSpinner: ${pounds(r.d.prize_credits)} of credit.`,
  "spinner.wheel_updated": (r) => {
    const segments = Array.isArray(r.d.segments) ? r.d.segments.length : null;
    return say`${r.actor()} changed the LabSpinner wheel${segments ? ` (${plural(segments, "segment")})` : ""}.`;
  },
  "system.alert_acknowledged": (r) => say`${r.actor()} acknowledged the alert “${label("alert_kind", r.d.kind)}”.`,
  "system.mail_retried": (r) =>
    say`${r.actor()} queued a failed mail to ${r.subjectUser("a player")} again${r.d.error ? ` (it had failed: ${quoted(r.d.error)})` : ""}.`,
  "system.payment_resolved": (r) =>
    say`${r.actor()} resolved a payment needing a person (${lowerFirst(label("payment_issue", r.d.kind))}${text(r.d.reference) ? ` ${text(r.d.reference)}` : ""})${r.d.note ? ": " : ""}${quoted(r.d.note)}.`,
  "top_up.created": (r) =>
    say`${r.user(r.row.subject_id)} started a top-up of ${r.topUpAmount()} (${label("payment_provider", r.d.provider)}).`,
  "top_up.credited": (r) => {
    const bonus = num(r.d.bonus);
    return say`${r.user(r.row.subject_id)}'s top-up of ${r.topUpAmount()} was credited${bonus ? ` with a ${pounds(bonus)} bonus` : ""}${text(r.d.funding) ? ` (${lowerFirst(label("card_funding", r.d.funding))})` : ""}.`;
  },
  "top_up.expired": (r) => say`${r.user(r.row.subject_id)}'s top-up of ${r.topUpAmount()} expired unpaid.`,
  "top_up.failed": (r) => say`${r.user(r.row.subject_id)}'s top-up of ${r.topUpAmount()} failed.`,
  "top_up.refunded": (r) => {
    const owed = num(r.d.owed);
    return say`${pounds(r.d.amount)} of ${r.user(r.row.subject_id)}'s top-up was refunded: ${pounds(r.d.reversed ?? 0)} of credit taken back${owed ? `, ${pounds(owed)} still owed` : ""}.`;
  },
  "top_up.refused_card_cap": (r) =>
    say`${r.user(r.row.subject_id)}'s credit-card top-up of ${r.topUpAmount()} was refused and refunded: it went over the monthly credit-card cap.`,
  "user.approved": (r) =>
    r.row.actor_id
      ? say`${r.actor()} approved ${r.subjectUser()}${r.d.bulk === true ? " (one of several approved at once)" : ""}.`
      : say`${r.subjectUser()} was approved automatically.`,
  "user.credit_adjusted": (r) => {
    const amount = num(r.d.amount);
    const balance = change(r.d.balance);
    return say`${r.actor()} ${amount !== null && amount < 0 ? `took ${pounds(-amount)} from` : `gave ${pounds(amount)} to`} ${r.subjectUser()}${r.d.reason ? ": " : ""}${quoted(r.d.reason)}. Balance ${pounds(balance.old)} to ${pounds(balance.new)}.`;
  },
  "user.deleted": (r) =>
    say`${r.actor()} deleted the account of ${r.subjectUser()}; their balance was ${pounds(r.d.balance ?? 0)}.`,
  "user.factor_removed_with_recovery_code": (r) =>
    say`${r.subjectUser()} removed the authenticator ${quoted(r.d.factor_name) ?? "with no name"} with a recovery code.`,
  "user.recovery_code_refused": (r) => say`${r.subjectUser()} entered a wrong recovery code.`,
  "user.recovery_code_used": (r) =>
    say`${r.subjectUser()} used a recovery code (${plural(num(r.d.codes_left) ?? 0, "code")} left).`,
  "user.recovery_codes_created": (r) => {
    const voided = num(r.d.voided) ?? 0;
    return say`${r.subjectUser()} made ${plural(num(r.d.codes) ?? 10, "new recovery code")}${voided ? `; ${plural(voided, "unused earlier code")} stopped working` : ""}.`;
  },
  "user.rejected": (r) => say`${r.actor()} rejected ${r.subjectUser()}${r.d.reason ? ": " : ""}${quoted(r.d.reason)}.`,
  "user.role_changed": (r) => {
    const role = change(r.d.role);
    return say`${r.actor()} changed the role of ${r.subjectUser()} from ${lowerFirst(label("user_role", role.old))} to ${lowerFirst(label("user_role", role.new))}.`;
  },
  "user.signed_up": (r) => say`${r.subjectUser()} signed up${text(r.d.email) ? ` as ${text(r.d.email)}` : ""}.`,
  "user.super_admin_accepted": (r) =>
    say`${r.subjectUser()} accepted the invitation to be super admin${text(r.d.email) ? ` sent to ${text(r.d.email)}` : ""}${when(r.d.invited_at) ? ` on ${when(r.d.invited_at)}` : ""}.`,
  "user.super_admin_invited": (r) =>
    say`${r.actor("The setup script (npm run setup:admin)")} invited ${text(r.d.email) ?? "an address"} to be ${r.d.another === true ? "another" : "the"} super admin.`,
  "user.two_step_enrolled": (r) => say`${r.subjectUser()} set up two-step verification.`,
  "user.two_step_reset": (r) => {
    const voided = num(r.d.recovery_codes_voided) ?? 0;
    return say`${r.actor()} reset the two-step verification of ${r.subjectUser()}${voided ? `; ${plural(voided, "unused recovery code")} stopped working` : ""}.`;
  },
  "user.updated": (r) => {
    const said: string[] = [];
    const name = change(r.d.name);
    if (r.d.name) said.push(`name from “${String(name.old ?? "")}” to “${String(name.new ?? "")}”`);
    if (r.d.approval) {
      const approval = change(r.d.approval);
      said.push(
        `approval from ${lowerFirst(label("approval_state", approval.old))} to ${lowerFirst(label("approval_state", approval.new))}`,
      );
    }
    if (r.d.kyc_status) {
      const kyc = change(r.d.kyc_status);
      said.push(
        `identity check from ${lowerFirst(label("kyc_status", kyc.old))} to ${lowerFirst(label("kyc_status", kyc.new))}`,
      );
    }
    return say`${r.actor()} changed ${r.subjectUser()}'s ${said.length ? said.join(", ") : "details"}.`;
  },
  "winner_story.consent_given": (r) =>
    say`${r.actor()} consented to their photo and quote being published for ${r.subjectCompetition()}.`,
  "winner_story.consent_recorded": (r) =>
    say`${r.actor()} recorded that the winner of ${r.subjectCompetition()} ${r.d.consent === false ? "withdrew consent to" : "consented to"} their photo and quote${r.d.note ? ": " : ""}${quoted(r.d.note)}.`,
  "winner_story.consent_withdrawn": (r) =>
    say`${r.actor()} withdrew consent to their photo and quote for ${r.subjectCompetition()}.`,
  "winner_story.published": (r) =>
    say`${r.actor()} published the winner's ${r.d.photo === true ? (r.d.quote === true ? "photo and quote" : "photo") : "quote"} for ${r.subjectCompetition()}${r.d.photo_replaced === true ? ", replacing the earlier photo" : ""}.`,
  "winner_story.removed": (r) =>
    say`${r.actor()} removed the winner's ${r.d.photo === true ? "photo and quote" : "quote"} for ${r.subjectCompetition()}.`,
};

/** Whether this kind has a sentence of its own (every setting has one, from the settings screen's names). */
export const hasSentence = (action: string) => Object.hasOwn(SENTENCES, action) || action.startsWith("settings.");

/**
 * The row as a sentence. A kind newer than this build reads as its label, who did it and about what,
 * never as raw details (the CSV keeps those as JSON).
 */
export function activitySentence(row: SentenceRow): SentencePart[] {
  const [first, ...rest] = sentenceOf(row);
  // "an unknown player entered …": a sentence starts with a capital, whatever stands first.
  if (typeof first === "string") return [capitalise(first), ...rest];
  return first ? [{ ...first, text: capitalise(first.text) }, ...rest] : [];
}

const capitalise = (words: string) => words.charAt(0).toUpperCase() + words.slice(1);

function sentenceOf(row: SentenceRow): SentencePart[] {
  const r = new Row(row);
  const write = Object.hasOwn(SENTENCES, row.action) ? SENTENCES[row.action] : null;
  if (write) return write(r);
  if (row.action.startsWith("settings.")) return settingSentence(r, row.action.slice("settings.".length));
  const about = row.subject_id ? (row.subject_label ?? "a record that no longer exists") : null;
  return say`${activityKindLabel(row.action)}${row.actor_id ? ", by " : ""}${row.actor_id ? r.actor() : null}${about ? `, about ${about}` : ""}.`;
}
