// Auth mail (confirmation, recovery, e-mail change). The embedded backend sends
// nothing: it writes each message to auth.mail_outbox, like the Supabase CLI's
// mail catcher, and GET /_embedded/mail (secret key) reads it back.
//
// Links follow Supabase's recommended SSR e-mail templates: they point at the
// app's /auth/confirm page with token_hash and type, and the page calls
// verifyOtp({ token_hash, type }). The six-digit code in `token` also works with
// verifyOtp({ email, token, type }).
import { env } from "../../lib/env";
import type { Db } from "./auth-store";

export type MailKind = "signup" | "recovery" | "email_change";

const SUBJECTS: Record<MailKind, string> = {
  signup: "Confirm your LabCash account",
  recovery: "Reset your LabCash password",
  email_change: "Confirm your new LabCash e-mail address",
};

// The `type` verifyOtp must be called with for each kind of mail.
const LINK_TYPES: Record<MailKind, string> = { signup: "email", recovery: "recovery", email_change: "email_change" };

export function siteUrl(): string {
  return env().SITE_URL ?? "http://localhost:3000";
}

export function confirmLink(kind: MailKind, tokenHash: string, redirectTo?: string): string {
  const params = new URLSearchParams({ token_hash: tokenHash, type: LINK_TYPES[kind] });
  if (redirectTo) params.set("next", redirectTo);
  return `${siteUrl()}/auth/confirm?${params}`;
}

function bodyFor(kind: MailKind, link: string, otp: string): string {
  const intro = {
    signup: "Welcome to LabCash. Confirm your e-mail address to finish creating your account:",
    recovery: "Someone (hopefully you) asked to reset your LabCash password. Choose a new one here:",
    email_change: "Confirm that this is your new e-mail address for LabCash:",
  }[kind];
  return `${intro}\n\n${link}\n\nOr enter this code: ${otp}\n\nThe link and code expire in one hour. If you did not ask for this, ignore this e-mail.\n`;
}

export async function queueMail(
  db: Db,
  mail: { to: string; kind: MailKind; tokenHash: string; otp: string; redirectTo?: string },
): Promise<void> {
  const link = confirmLink(mail.kind, mail.tokenHash, mail.redirectTo);
  await db.query("insert into auth.mail_outbox (to_email, kind, subject, body, token) values ($1, $2, $3, $4, $5)", [
    mail.to,
    mail.kind,
    SUBJECTS[mail.kind],
    bodyFor(mail.kind, link, mail.otp),
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
