// Auth mail (confirmation, invitation, recovery, e-mail change). The embedded backend sends
// nothing: it writes each message to auth.mail_outbox, like the Supabase CLI's
// mail catcher, and GET /_embedded/mail (secret key) reads it back.
//
// Links follow Supabase's recommended SSR e-mail templates: they point at the
// app's /auth/confirm page with token_hash and type, and the page calls
// verifyOtp({ token_hash, type }). The six-digit code in `token` also works with
// verifyOtp({ email, token, type }).
import { env } from "../../lib/env";
import type { Db } from "./auth-store";

/**
 * What a message is for. `email_change_current` is the second half of GoTrue's secure e-mail change:
 * the message to the address being replaced. It is stored with kind `email_change`, as GoTrue gives
 * both messages the action type email_change; its link carries the same type.
 */
export type MailKind =
  "signup" | "invite" | "recovery" | "magiclink" | "email_change" | "email_change_current" | "reauthentication";

const SUBJECTS: Record<MailKind, string> = {
  signup: "Confirm your LabCash account",
  invite: "You have been invited to LabCash",
  recovery: "Reset your LabCash password",
  magiclink: "Your LabCash sign-in link",
  email_change: "Confirm your new LabCash e-mail address",
  email_change_current: "Confirm the change of your LabCash e-mail address",
  reauthentication: "Your LabCash confirmation code",
};

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

export function siteUrl(): string {
  return env().SITE_URL ?? "http://localhost:3000";
}

export function confirmLink(kind: MailKind, tokenHash: string, redirectTo?: string): string {
  const params = new URLSearchParams({ token_hash: tokenHash, type: LINK_TYPES[kind] });
  if (redirectTo) params.set("next", redirectTo);
  return `${siteUrl()}/auth/confirm?${params}`;
}

function introFor(kind: MailKind, newEmail?: string): string {
  switch (kind) {
    case "signup":
      return "Welcome to LabCash. Confirm your e-mail address to finish creating your account:";
    case "invite":
      return "You have been invited to join LabCash. Follow this link to accept the invitation:";
    case "recovery":
      return "Someone (hopefully you) asked to reset your LabCash password. Choose a new one here:";
    case "magiclink":
      return "Sign in to LabCash with this link:";
    case "reauthentication":
      return "Someone (hopefully you) asked to confirm it is you before changing how your LabCash account is protected.";
    case "email_change":
      return "Confirm that this is your new e-mail address for LabCash:";
    case "email_change_current":
      return (
        `Someone (hopefully you) asked to change the e-mail address of your LabCash account from this address to ${newEmail}. ` +
        "The change is made once both addresses are confirmed. Confirm it here:"
      );
  }
}

function bodyFor(kind: MailKind, link: string, otp: string, newEmail?: string): string {
  // GoTrue's reauthentication mail carries only the code: a link would confirm nothing by itself.
  if (kind === "reauthentication")
    return `${introFor(kind)}\n\nYour code: ${otp}\n\nIt expires in one hour. If you did not ask for this, change your password now.\n`;
  return `${introFor(kind, newEmail)}\n\n${link}\n\nOr enter this code: ${otp}\n\nThe link and code expire in one hour. If you did not ask for this, ignore this e-mail.\n`;
}

export async function queueMail(
  db: Db,
  mail: { to: string; kind: MailKind; tokenHash: string; otp: string; redirectTo?: string; newEmail?: string },
): Promise<void> {
  const link = confirmLink(mail.kind, mail.tokenHash, mail.redirectTo);
  await db.query("insert into auth.mail_outbox (to_email, kind, subject, body, token) values ($1, $2, $3, $4, $5)", [
    mail.to,
    mail.kind === "email_change_current" ? "email_change" : mail.kind,
    SUBJECTS[mail.kind],
    bodyFor(mail.kind, link, mail.otp, mail.newEmail),
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

export interface AppOutboxRow {
  id: number;
  to_email: string;
  kind: string;
  subject: string;
  body_text: string;
  list_unsubscribe: string | null;
  status: string;
  created_at: string | Date;
}

/** The app's own mail for `email` (public.mail_outbox), newest first: what an inbox would hold with no SMTP. */
export async function readAppOutbox(db: Db, email: string | null, limit = 50): Promise<AppOutboxRow[]> {
  const { rows } = await db.query<AppOutboxRow>(
    `select id, to_email, kind, subject, body_text, list_unsubscribe, status, created_at
       from public.mail_outbox
      where $1::text is null or lower(to_email) = lower($1)
      order by id desc
      limit $2`,
    [email, limit],
  );
  return rows;
}
