// Auth mail (confirmation, invitation, recovery, e-mail change). The embedded backend sends
// nothing: it writes each message to auth.mail_outbox, like the Supabase CLI's
// mail catcher, and GET /_embedded/mail (secret key) reads it back.
//
// Links point at the app's /auth/confirm page with the address the mail went to, the code and the type
// (`?email=…&code=…&type=…`), as an app's own GoTrue templates do with {{ .Email }} and {{ .Token }}: the page
// calls verifyOtp({ email, token, type }), so each try at a link is a try at that address's code, counted per
// address (email-codes.ts). No token_hash leaves in mail: a hash names no address, so guesses sent as hashes
// could be counted per visitor only. /verify still takes a token_hash (admin generate_link answers one), as
// GoTrue does.
import type { PGlite } from "@electric-sql/pglite";
import type { Db } from "./auth-store";
import type { EmbeddedRoute } from "./http";

/** Who the mail comes from and where its links lead: the server's options. */
export interface MailSettings {
  /** GoTrue's SITE_URL: links lead to `<siteUrl>/auth/confirm?email=…&code=…&type=…`. */
  siteUrl: string;
  /** The product the mail names ("Confirm your <appName> account"). */
  appName: string;
  /** How long its links and codes work (GoTrue's otp_expiry), as the mail says it. */
  otpExpirySeconds: number;
}

/** "one hour", "10 minutes", "90 seconds": a code's life as the mail words it. */
export function lifetimeWords(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? "one hour" : `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? "one minute" : `${seconds / 60} minutes`;
  return `${seconds} seconds`;
}

/**
 * What a message is for. `email_change_current` is the second half of GoTrue's secure e-mail change:
 * the message to the address being replaced. It is stored with kind `email_change`, as GoTrue gives
 * both messages the action type email_change; its link carries the same type.
 */
export type MailKind =
  "signup" | "invite" | "recovery" | "magiclink" | "email_change" | "email_change_current" | "reauthentication";

function subjectFor(kind: MailKind, app: string): string {
  switch (kind) {
    case "signup":
      return `Confirm your ${app} account`;
    case "invite":
      return `You have been invited to ${app}`;
    case "recovery":
      return `Reset your ${app} password`;
    case "magiclink":
      return `Your ${app} sign-in link`;
    case "email_change":
      return `Confirm your new ${app} e-mail address`;
    case "email_change_current":
      return `Confirm the change of your ${app} e-mail address`;
    case "reauthentication":
      return `Your ${app} confirmation code`;
  }
}

// The `type` verifyOtp must be called with for each kind of mail.
const LINK_TYPES: Record<MailKind, string> = {
  signup: "email",
  invite: "invite",
  recovery: "recovery",
  magiclink: "magiclink",
  email_change: "email_change",
  email_change_current: "email_change",
  reauthentication: "reauthentication",
};

function confirmLink(siteUrl: string, kind: MailKind, to: string, otp: string, redirectTo?: string): string {
  const params = new URLSearchParams({ email: to, code: otp, type: LINK_TYPES[kind] });
  if (redirectTo) params.set("next", redirectTo);
  return `${siteUrl}/auth/confirm?${params}`;
}

function introFor(kind: MailKind, app: string, newEmail?: string): string {
  switch (kind) {
    case "signup":
      return `Welcome to ${app}. Confirm your e-mail address to finish creating your account:`;
    case "invite":
      return `You have been invited to join ${app}. Follow this link to accept the invitation:`;
    case "recovery":
      return `Someone (hopefully you) asked to reset your ${app} password. Choose a new one here:`;
    case "magiclink":
      return `Sign in to ${app} with this link:`;
    case "reauthentication":
      return `Someone (hopefully you) asked to confirm it is you before changing how your ${app} account is protected.`;
    case "email_change":
      return `Confirm that this is your new e-mail address for ${app}:`;
    case "email_change_current":
      return (
        `Someone (hopefully you) asked to change the e-mail address of your ${app} account from this address to ${newEmail}. ` +
        "The change is made once both addresses are confirmed. Confirm it here:"
      );
  }
}

function bodyFor(kind: MailKind, settings: MailSettings, link: string, otp: string, newEmail?: string): string {
  const app = settings.appName;
  const life = lifetimeWords(settings.otpExpirySeconds);
  // GoTrue's reauthentication mail carries only the code: a link would confirm nothing by itself.
  if (kind === "reauthentication")
    return `${introFor(kind, app)}\n\nYour code: ${otp}\n\nIt expires in ${life}. If you did not ask for this, change your password now.\n`;
  return `${introFor(kind, app, newEmail)}\n\n${link}\n\nOr enter this code: ${otp}\n\nThe link and code expire in ${life}. If you did not ask for this, ignore this e-mail.\n`;
}

export interface OutgoingMail {
  to: string;
  kind: MailKind;
  otp: string;
  redirectTo?: string;
  newEmail?: string;
}

export async function queueMail(db: Db, settings: MailSettings, mail: OutgoingMail): Promise<void> {
  const link = confirmLink(settings.siteUrl, mail.kind, mail.to, mail.otp, mail.redirectTo);
  await db.query("insert into auth.mail_outbox (to_email, kind, subject, body, token) values ($1, $2, $3, $4, $5)", [
    mail.to,
    mail.kind === "email_change_current" ? "email_change" : mail.kind,
    subjectFor(mail.kind, settings.appName),
    bodyFor(mail.kind, settings, link, mail.otp, mail.newEmail),
    mail.otp,
  ]);
}

export interface OutboxRow {
  id: number;
  to_email: string;
  kind: string;
  subject: string;
  body: string;
  token: string | null;
  created_at: Date;
}

/** Newest first; all mail when no address is given. */
export async function readOutbox(db: Db, email: string | null, limit = 50): Promise<OutboxRow[]> {
  const { rows } = await db.query<OutboxRow>(
    `select id, to_email, kind, subject, body, token, created_at
       from auth.mail_outbox
      where $1::text is null or lower(to_email) = lower($1)
      order by id desc
      limit $2`,
    [email, limit],
  );
  return rows;
}

/**
 * A GET route over an outbox (`?email=` one address, else all; `?limit=` 1 to 500, default 50), newest first with
 * ISO times: GET /_embedded/mail, and an app's own outbox beside it.
 */
export function outboxRoute(
  read: (db: PGlite, email: string | null, limit: number) => Promise<Array<{ created_at: string | Date }>>,
): EmbeddedRoute {
  return async ({ db, url }) => {
    const limit = Math.min(500, Math.max(1, Number(url.searchParams.get("limit") ?? "50") || 50));
    const rows = await read(db, url.searchParams.get("email"), limit);
    return { status: 200, body: rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() })) };
  };
}
