// Reading and writing GoTrue's tables (auth.users, auth.identities,
// auth.sessions, auth.refresh_tokens) and shaping rows the way GoTrue's JSON does.
// The auth server runs as the database owner, as GoTrue runs as supabase_auth_admin.
import { createHash, randomBytes, randomInt } from "node:crypto";
import { authErrors } from "./auth-errors";
import type { Claims, TokenSigner } from "./jwt";

/** What both PGlite and a PGlite transaction offer. */
export interface Db {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
}

/** Access tokens live an hour, GoTrue's default (jwt_expiry = 3600). */
export const ACCESS_TOKEN_SECONDS = 3600;
/** How e-mailed codes are made: GoTrue's MAILER_OTP_LENGTH (6 to 10 digits) and MAILER_OTP_EXP in seconds. */
export interface EmailOtpSettings {
  length: number;
  expirySeconds: number;
}

/** GoTrue's defaults: six digits, valid for an hour. */
export const GOTRUE_EMAIL_OTP: EmailOtpSettings = { length: 6, expirySeconds: 3600 };

export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: Date | null;
  invited_at: Date | null;
  confirmation_token: string | null;
  confirmation_sent_at: Date | null;
  recovery_token: string | null;
  recovery_sent_at: Date | null;
  email_change: string | null;
  email_change_token_current: string | null;
  email_change_token_new: string | null;
  email_change_sent_at: Date | null;
  /** GoTrue's secure e-mail change: 1 once one of the two links has been followed. */
  email_change_confirm_status: number | null;
  reauthentication_token: string | null;
  reauthentication_sent_at: Date | null;
  last_sign_in_at: Date | null;
  raw_app_meta_data: Record<string, unknown> | null;
  raw_user_meta_data: Record<string, unknown> | null;
  created_at: Date | null;
  updated_at: Date | null;
  phone: string | null;
  phone_confirmed_at: Date | null;
  banned_until: Date | null;
  deleted_at: Date | null;
  is_anonymous: boolean;
}

interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: Record<string, unknown>;
  provider: string;
  last_sign_in_at: Date | null;
  created_at: Date | null;
  updated_at: Date | null;
  email: string | null;
}

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : undefined);

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The address rule GoTrue applies (checkmail.ValidateFormat at the version its go.mod pins): ASCII
 * local part of the RFC 5322 atom characters and dots, then dot-separated host labels of letters,
 * digits and inner hyphens, up to 63 characters each. No dot is required after the @ and nothing is
 * trimmed, as in GoTrue.
 */
const CHECKMAIL_RE =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/**
 * GoTrue's validateEmail: required, at most 255 bytes, checkmail's format; answers the address in
 * lower case. Every endpoint that takes an address runs it (sign-up, recover, resend, verify with a
 * code, e-mail change, and the admin create, update, invite and generate_link).
 */
export function validateEmail(email: string | undefined | null): string {
  if (!email) throw authErrors.emailRequired();
  if (Buffer.byteLength(email) > 255) throw authErrors.emailTooLong();
  if (!CHECKMAIL_RE.test(email)) throw authErrors.invalidEmail();
  return email.toLowerCase();
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Opaque refresh token, like GoTrue's: random, URL-safe, stored as is. */
export function randomToken(): string {
  return randomBytes(24).toString("base64url");
}

/** GoTrue's e-mail OTP: `length` random digits; the link carries sha224(email + otp) as the token hash. */
export function newOtp(email: string, length: number): { otp: string; tokenHash: string } {
  let otp = "";
  while (otp.length < length) otp += String(randomInt(0, 10));
  return { otp, tokenHash: tokenHash(email, otp) };
}

export function tokenHash(email: string, otp: string): string {
  return createHash("sha224")
    .update(normalizeEmail(email) + otp)
    .digest("hex");
}

export function isBanned(user: UserRow): boolean {
  return !!user.banned_until && new Date(user.banned_until).getTime() > Date.now();
}

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>("select * from auth.users where id = $1 and deleted_at is null", [id]);
  return rows[0];
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>("select * from auth.users where lower(email) = $1 and deleted_at is null", [
    normalizeEmail(email),
  ]);
  return rows[0];
}

export interface FactorRow {
  id: string;
  user_id: string;
  friendly_name: string | null;
  factor_type: string;
  status: "verified" | "unverified";
  secret: string | null;
  created_at: Date;
  updated_at: Date;
  last_challenged_at: Date | null;
}

export async function factorsOf(db: Db, userId: string): Promise<FactorRow[]> {
  const { rows } = await db.query<FactorRow>("select * from auth.mfa_factors where user_id = $1 order by created_at", [
    userId,
  ]);
  return rows;
}

/** GoTrue's factor JSON (the secret is never shown after enrolment). */
export function factorJson(factor: FactorRow): Record<string, unknown> {
  return {
    id: factor.id,
    ...(factor.friendly_name ? { friendly_name: factor.friendly_name } : {}),
    factor_type: factor.factor_type,
    status: factor.status,
    created_at: iso(factor.created_at),
    updated_at: iso(factor.updated_at),
    phone: "",
    last_challenged_at: iso(factor.last_challenged_at) ?? null,
  };
}

/** GoTrue's user JSON: optional timestamps are left out when unset; `factors` only when there are some. */
export async function userJson(db: Db, user: UserRow): Promise<Record<string, unknown>> {
  const { rows } = await db.query<IdentityRow>("select * from auth.identities where user_id = $1 order by created_at", [
    user.id,
  ]);
  const factors = await factorsOf(db, user.id);
  const json = shapeUser(user, rows);
  if (factors.length > 0) json.factors = factors.map(factorJson);
  return json;
}

export function shapeUser(user: UserRow, identities: IdentityRow[]): Record<string, unknown> {
  const confirmedAt = user.email_confirmed_at ?? user.phone_confirmed_at;
  const json: Record<string, unknown> = {
    id: user.id,
    aud: user.aud ?? "authenticated",
    role: user.role ?? "authenticated",
    email: user.email ?? "",
    email_confirmed_at: iso(user.email_confirmed_at),
    phone: user.phone ?? "",
    phone_confirmed_at: iso(user.phone_confirmed_at),
    confirmation_sent_at: iso(user.confirmation_sent_at),
    confirmed_at: iso(confirmedAt),
    recovery_sent_at: iso(user.recovery_sent_at),
    new_email: user.email_change || undefined,
    email_change_sent_at: iso(user.email_change_sent_at),
    invited_at: iso(user.invited_at),
    last_sign_in_at: iso(user.last_sign_in_at),
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    identities: identities.map((i) => ({
      identity_id: i.id,
      id: i.provider_id,
      user_id: i.user_id,
      identity_data: i.identity_data,
      provider: i.provider,
      last_sign_in_at: iso(i.last_sign_in_at),
      created_at: iso(i.created_at),
      updated_at: iso(i.updated_at),
      email: i.email ?? undefined,
    })),
    created_at: iso(user.created_at),
    updated_at: iso(user.updated_at),
    banned_until: iso(user.banned_until),
    is_anonymous: user.is_anonymous,
  };
  for (const key of Object.keys(json)) if (json[key] === undefined) delete json[key];
  return json;
}

export interface NewUser {
  email: string;
  passwordHash: string | null;
  /** Confirm the address at once (GoTrue's User.Confirm: email_confirmed_at, user_metadata.email_verified). */
  confirmed: boolean;
  userMetadata: Record<string, unknown>;
  appMetadata?: Record<string, unknown>;
  id?: string;
  role?: string;
  /** An invited user (POST /invite, generate_link invite): invited_at is set. */
  invited?: boolean;
  /**
   * Made by POST /signup. GoTrue's Signup copies the sign-up data into the e-mail identity's data and
   * then replaces user_metadata with that identity data (User.RemoveUnconfirmedIdentities), so a
   * signed-up user's metadata also holds sub, email, email_verified and phone_verified. Every other
   * path (admin create, invite, generate_link) keeps user_metadata exactly as sent.
   */
  signup?: boolean;
}

/** GoTrue merges metadata updates key by key; a null value removes the key. */
export function mergeMetadata(current: Record<string, unknown> | null, updates: Record<string, unknown>) {
  const merged = { ...current };
  for (const [k, v] of Object.entries(updates)) {
    if (v === null) delete merged[k];
    else merged[k] = v;
  }
  return merged;
}

/**
 * Inserts the user and its e-mail identity as GoTrue does. The row goes in with the metadata as sent,
 * so the foundation migration's trigger sees the sign-up's name and date of birth (and may refuse
 * the user). The identity's data is GoTrue's provider.Claims for an e-mail identity.
 */
export async function insertUser(db: Db, input: NewUser): Promise<UserRow> {
  const email = normalizeEmail(input.email);
  const { rows } = await db.query<UserRow>(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, invited_at,
                             raw_app_meta_data, raw_user_meta_data)
     values ('00000000-0000-0000-0000-000000000000', coalesce($1::uuid, gen_random_uuid()), 'authenticated',
             coalesce($2, 'authenticated'), $3, $4, case when $5 then now() end, $6, $7)
     returning *`,
    [
      input.id ?? null,
      input.role ?? null,
      email,
      input.passwordHash,
      input.invited === true,
      mergeMetadata({ provider: "email", providers: ["email"] }, input.appMetadata ?? {}),
      input.userMetadata,
    ],
  );
  let user = rows[0];
  const identityData: Record<string, unknown> = {
    sub: user.id,
    email,
    email_verified: false,
    phone_verified: false,
  };
  if (input.signup) {
    for (const [k, v] of Object.entries(input.userMetadata)) if (!(k in identityData)) identityData[k] = v;
  }
  await db.query(
    `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at)
     values ($1, $2, $3, 'email', now())`,
    [user.id, user.id, identityData],
  );
  if (input.signup) {
    const { rows: replaced } = await db.query<UserRow>(
      "update auth.users set raw_user_meta_data = $2 where id = $1 returning *",
      [user.id, identityData],
    );
    user = replaced[0];
  }
  if (input.confirmed) user = await confirmUser(db, user.id);
  return user;
}

/**
 * GoTrue's User.Confirm: the address counts as confirmed from now, the confirmation token is spent,
 * and user_metadata gains email_verified: true (the identity is not touched here).
 */
export async function confirmUser(db: Db, userId: string): Promise<UserRow> {
  const { rows } = await db.query<UserRow>(
    `update auth.users set confirmation_token = null, email_confirmed_at = now(), updated_at = now(),
            raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || '{"email_verified": true}'::jsonb
      where id = $1 returning *`,
    [userId],
  );
  return rows[0];
}

/** GoTrue's signupVerify also marks the identities that carry the user's address as verified. */
export async function markIdentityEmailVerified(db: Db, user: UserRow): Promise<void> {
  if (!user.email) return;
  await db.query(
    `update auth.identities set identity_data = identity_data || '{"email_verified": true}'::jsonb, updated_at = now()
      where user_id = $1 and email = lower($2)`,
    [user.id, user.email],
  );
}

export interface SessionBody {
  access_token: string;
  token_type: "bearer";
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: Record<string, unknown>;
}

/** GoTrue's authentication methods (models/amr.go) that this server records. */
export type AmrMethod =
  "password" | "otp" | "totp" | "recovery" | "invite" | "magiclink" | "email/signup" | "email_change";

export class SessionIssuer {
  constructor(
    private readonly signer: TokenSigner,
    private readonly issuer: string,
  ) {}

  /** Starts a session: a sessions row, its first refresh token, and an access token. */
  async start(db: Db, user: UserRow, method: AmrMethod): Promise<SessionBody> {
    const { rows } = await db.query<{ id: string; created_at: Date }>(
      "insert into auth.sessions (user_id) values ($1) returning id, created_at",
      [user.id],
    );
    const refreshToken = randomToken();
    await db.query("insert into auth.refresh_tokens (token, user_id, session_id) values ($1, $2, $3)", [
      refreshToken,
      user.id,
      rows[0].id,
    ]);
    const { rows: signedIn } = await db.query<UserRow>(
      "update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1 returning *",
      [user.id],
    );
    await db.query("update auth.identities set last_sign_in_at = now() where user_id = $1", [user.id]);
    await db.query("insert into auth.mfa_amr_claims (session_id, authentication_method) values ($1, $2)", [
      rows[0].id,
      method,
    ]);
    return this.body(db, signedIn[0], rows[0].id, refreshToken);
  }

  /**
   * Raises a session to aal2 after a verified second factor (GoTrue's updateMFASessionAndClaims): the
   * session records the level and the factor, `totp` joins its amr, and its refresh token is swapped
   * for a new one so the tokens issued before the code cannot be refreshed into the stronger session.
   */
  async raiseToAal2(db: Db, user: UserRow, sessionId: string, factorId: string): Promise<SessionBody> {
    await db.query("update auth.sessions set aal = 'aal2', factor_id = $2, updated_at = now() where id = $1", [
      sessionId,
      factorId,
    ]);
    const { rows: active } = await db.query<{ id: number; token: string }>(
      "select id, token from auth.refresh_tokens where session_id = $1 and not revoked order by id desc limit 1",
      [sessionId],
    );
    if (active[0])
      await db.query("update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1", [active[0].id]);
    const refreshToken = randomToken();
    await db.query("insert into auth.refresh_tokens (token, user_id, session_id, parent) values ($1, $2, $3, $4)", [
      refreshToken,
      user.id,
      sessionId,
      active[0]?.token ?? null,
    ]);
    await db.query(
      `insert into auth.mfa_amr_claims (session_id, authentication_method) values ($1, 'totp')
       on conflict (session_id, authentication_method) do update set updated_at = now()`,
      [sessionId],
    );
    return this.body(db, user, sessionId, refreshToken);
  }

  /**
   * The token response for an existing session (after a refresh or a reuse within the grace interval).
   * `amr` lists how the session was authenticated, newest first, as GoTrue reads it from
   * auth.mfa_amr_claims: a refresh never rewrites it.
   */
  async body(db: Db, user: UserRow, sessionId: string, refreshToken: string): Promise<SessionBody> {
    const { rows: amr } = await db.query<{ method: string; timestamp: number }>(
      `select authentication_method as method, extract(epoch from updated_at)::int as timestamp
         from auth.mfa_amr_claims where session_id = $1 order by updated_at desc`,
      [sessionId],
    );
    const { rows: session } = await db.query<{ aal: string | null }>("select aal from auth.sessions where id = $1", [
      sessionId,
    ]);
    const now = Math.floor(Date.now() / 1000);
    const exp = now + ACCESS_TOKEN_SECONDS;
    const claims: Claims = {
      iss: this.issuer,
      sub: user.id,
      aud: user.aud ?? "authenticated",
      exp,
      iat: now,
      email: user.email ?? "",
      phone: user.phone ?? "",
      app_metadata: user.raw_app_meta_data ?? {},
      user_metadata: user.raw_user_meta_data ?? {},
      role: user.role ?? "authenticated",
      aal: session[0]?.aal ?? "aal1",
      amr,
      session_id: sessionId,
      is_anonymous: user.is_anonymous,
    };
    return {
      access_token: await this.signer.sign(claims),
      token_type: "bearer",
      expires_in: ACCESS_TOKEN_SECONDS,
      expires_at: exp,
      refresh_token: refreshToken,
      user: await userJson(db, user),
    };
  }
}
