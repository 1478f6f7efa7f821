// GoTrue-compatible auth under /auth/v1: the endpoints supabase-js calls for
// e-mail + password accounts, sessions with rotating refresh tokens, e-mail
// confirmation and recovery, and the admin user API. Status codes, error codes
// and JSON shapes follow GoTrue (supabase/auth) so the app cannot tell the
// difference from hosted Supabase.
import { createHash, randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { PGlite } from "@electric-sql/pglite";
import bcrypt from "bcryptjs";
import { AuthError, authErrors, checkPasswordStrength } from "./auth-errors";
import {
  EMAIL_RE,
  findUserByEmail,
  findUserById,
  insertUser,
  isBanned,
  markEmailVerified,
  newOtp,
  normalizeEmail,
  OTP_SECONDS,
  randomToken,
  SessionIssuer,
  shapeUser,
  tokenHash,
  userJson,
  UUID_RE,
  type AmrMethod,
  type Db,
  type SessionBody,
  type UserRow,
} from "./auth-store";
import { bearer, keyRole } from "./callers";
import type { Reply } from "./http";
import { TokenError, type Claims, type TokenSigner } from "./jwt";
import { queueMail, type MailKind } from "./mail";
import { SecondFactors, type FactorCaller } from "./mfa";
import { allowedRedirect, type RedirectRules } from "./origins";
import { RateLimiter, type LimitedAction, type RateLimits } from "./rate-limit";

const BCRYPT_COST = 10;
/** A PKCE auth code must be exchanged within five minutes (GoTrue's flow-state expiry). */
const AUTH_CODE_SECONDS = 300;

export interface AuthOptions {
  db: PGlite;
  signer: TokenSigner;
  /** `iss` of access tokens: `<url>/auth/v1`. */
  issuer: string;
  /** Require e-mail confirmation before the first sign-in (GoTrue's mailer_autoconfirm = false). */
  mailConfirmation: boolean;
  /**
   * A refresh token used again within this many seconds of its rotation returns
   * the current session instead of failing (GoTrue's refresh_token_reuse_interval,
   * default 10), so two tabs or parallel server requests refreshing at once do
   * not sign the user out. 0 makes every reuse fail.
   */
  refreshReuseSeconds: number;
  /** Where e-mail links may lead (GoTrue's SITE_URL and uri_allow_list). */
  redirects: RedirectRules;
  /** GoTrue's rate limits. */
  rateLimits: RateLimits;
}

export interface AuthRequest {
  req: IncomingMessage;
  method: string;
  /** Path below /auth/v1, e.g. "/token". */
  path: string;
  url: URL;
  body: Record<string, unknown>;
}

interface PkceChallenge {
  challenge: string;
  method: "s256" | "plain";
}

interface AuthCode extends PkceChallenge {
  userId: string;
  amr: AmrMethod;
  createdAt: number;
}

type Verifiable = "signup" | "invite" | "magiclink" | "email" | "recovery" | "email_change";
const VERIFY_TYPES: ReadonlySet<string> = new Set<Verifiable>([
  "signup",
  "invite",
  "magiclink",
  "email",
  "recovery",
  "email_change",
]);

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

function obj(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** GoTrue merges metadata updates key by key; a null value removes the key. */
function mergeMetadata(current: Record<string, unknown> | null, updates: Record<string, unknown>) {
  const merged = { ...current };
  for (const [k, v] of Object.entries(updates)) {
    if (v === null) delete merged[k];
    else merged[k] = v;
  }
  return merged;
}

/** Go-style durations as GoTrue's ban_duration takes them: "24h", "1h30m", "90s", or "none". */
function parseBanDuration(value: string): Date | null {
  if (value === "none") return null;
  const units: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };
  let total = 0;
  const re = /(\d+(?:\.\d+)?)(ms|h|m|s)/g;
  let consumed = "";
  for (const match of value.matchAll(re)) {
    total += Number(match[1]) * units[match[2]];
    consumed += match[0];
  }
  if (!consumed || consumed !== value)
    throw authErrors.validation("ban_duration must be a duration such as 24h or none");
  return new Date(Date.now() + total);
}

/** A database error raised while writing a user (the sign-up trigger, a constraint) as an auth error. */
function userWriteError(e: unknown): AuthError {
  const err = e as { code?: string; message?: string; constraint?: string };
  const code = err.code ?? "";
  if (code === "23505" && /email/.test(err.message ?? "")) return authErrors.emailExists();
  // Errors the app's own SQL raises on purpose (the under-18 trigger uses 22023)
  // carry a message meant for people; pass it on as a 4xx rather than GoTrue's
  // opaque 500 "Database error saving new user", which supabase-js would retry.
  if (/^P0001$|^22|^23/.test(code)) return new AuthError(422, "validation_failed", err.message ?? "Invalid data");
  if (/^PT\d{3}$/.test(code))
    return new AuthError(Number(code.slice(2)), "validation_failed", err.message ?? "Invalid data");
  return authErrors.unexpected("Database error saving new user");
}

let dummyHash: string | undefined;
/**
 * A real bcrypt hash of a random password at the production cost, compared against when the address
 * is unknown: an invalid stand-in fails at once, and the 2 ms against 80 ms told which accounts exist.
 */
function timingHash(): string {
  return (dummyHash ??= bcrypt.hashSync(randomUUID(), BCRYPT_COST));
}

export class AuthService {
  private readonly sessions: SessionIssuer;
  /** PKCE challenges of pending e-mail flows, by user: consumed by GET /verify. */
  private readonly pendingPkce = new Map<string, PkceChallenge>();
  /** Auth codes from GET /verify, exchanged by POST /token?grant_type=pkce. Short-lived, so memory is enough. */
  private readonly authCodes = new Map<string, AuthCode>();
  private readonly limiter: RateLimiter;
  private readonly factors: SecondFactors;

  constructor(private readonly options: AuthOptions) {
    this.sessions = new SessionIssuer(options.signer, options.issuer);
    this.limiter = new RateLimiter(options.rateLimits);
    this.factors = new SecondFactors(options.db, this.sessions, () => new URL(options.redirects.siteUrl).host);
  }

  private get db(): PGlite {
    return this.options.db;
  }

  /** Dispatches one request; errors are thrown as AuthError. */
  async handle(r: AuthRequest): Promise<Reply> {
    const { method, path } = r;
    const route = `${method} ${path}`;
    switch (route) {
      case "GET /health":
        return ok({ version: "embedded", name: "GoTrue", description: "LabCash embedded GoTrue-compatible auth" });
      case "GET /settings":
        return ok(this.settings());
      case "GET /.well-known/jwks.json":
        return { status: 200, body: this.options.signer.jwks(), headers: { "Cache-Control": "public, max-age=600" } };
      case "POST /signup":
        this.limit("sign_in", r);
        return this.signup(r);
      case "POST /token":
        this.limit(r.url.searchParams.get("grant_type") === "refresh_token" ? "refresh" : "sign_in", r);
        return this.token(r);
      case "GET /user":
        return ok(await userJson(this.db, (await this.requireUser(r.req)).user));
      case "PUT /user":
        return this.updateUser(r);
      case "POST /logout":
        return this.logout(r);
      case "POST /recover":
        return this.recover(r);
      case "POST /verify":
        this.limit("verify", r);
        return this.verifyPost(r);
      case "GET /verify":
        this.limit("verify", r);
        return this.verifyRedirect(r);
      case "POST /resend":
        return this.resend(r);
      case "GET /admin/users":
        return this.listUsers(r);
      case "POST /admin/users":
        return this.createUser(r);
    }
    if (path.startsWith("/factors")) {
      if (/\/(challenge|verify)$/.test(path)) this.limit("factor", r);
      const reply = await this.factors.handle(method, path, r.body, () => this.factorCaller(r));
      if (reply) return reply;
    }
    const adminUser = path.match(/^\/admin\/users\/([^/]+)(?:\/factors(?:\/([^/]+))?)?$/);
    const adminFactors = adminUser && path.includes("/factors");
    if (adminUser && (adminFactors || ["GET", "PUT", "DELETE"].includes(method))) {
      this.requireAdmin(r.req);
      let id: string;
      try {
        id = decodeURIComponent(adminUser[1]);
      } catch {
        throw authErrors.badUserId();
      }
      if (!UUID_RE.test(id)) throw authErrors.badUserId();
      const user = await findUserById(this.db, id);
      if (!user) throw authErrors.userNotFound();
      if (adminFactors) {
        const reply = await this.factors.admin(method, user, adminUser[2]);
        if (reply) return reply;
        throw authErrors.notFound();
      }
      if (method === "GET") return ok(await userJson(this.db, user));
      if (method === "PUT") return this.adminUpdateUser(user, r.body);
      return this.adminDeleteUser(user, r.body);
    }
    throw authErrors.notFound();
  }

  /** Refuses the request with GoTrue's 429 when its client address is over the limit for `action`. */
  private limit(action: LimitedAction, r: AuthRequest): void {
    if (!this.limiter.allow(action, r.req.socket.remoteAddress ?? "unknown")) throw authErrors.overRequestRateLimit();
  }

  /** Queues an auth e-mail within GoTrue's limits: one per address per emailSecondsApart, emailsPerHour in all. */
  private async mail(tx: Db, message: Parameters<typeof queueMail>[1]): Promise<void> {
    const verdict = this.limiter.allowEmail(normalizeEmail(message.to));
    if (verdict === "too_soon")
      throw authErrors.emailTooSoon(this.limiter.secondsUntilEmail(normalizeEmail(message.to)));
    if (verdict === "over_hourly") throw authErrors.overEmailSendRateLimit();
    await queueMail(tx, message);
  }

  /** The request's redirect_to when GoTrue would follow it, else none (links then lead to the site). */
  private redirectTo(r: AuthRequest): string | undefined {
    return allowedRedirect(r.url.searchParams.get("redirect_to"), this.options.redirects);
  }

  private settings() {
    return {
      external: { email: true, phone: false, anonymous_users: false },
      disable_signup: false,
      mailer_autoconfirm: !this.options.mailConfirmation,
      phone_autoconfirm: false,
      sms_provider: "",
      saml_enabled: false,
    };
  }

  // ---------------------------------------------------------------- callers

  /** The signed-in user and session behind the bearer access token. */
  private async requireUser(req: IncomingMessage): Promise<{ user: UserRow; claims: Claims }> {
    const token = bearer(req);
    if (!token || keyRole(token)) throw authErrors.noAuthorization();
    let claims: Claims;
    try {
      claims = await this.options.signer.verify(token);
    } catch (e) {
      if (e instanceof TokenError && e.kind === "expired")
        throw authErrors.badJwt("token has invalid claims: token is expired");
      throw authErrors.badJwt(e instanceof Error ? e.message : "invalid token");
    }
    if (typeof claims.sub !== "string" || !claims.sub) throw authErrors.missingSub();
    if (!UUID_RE.test(claims.sub)) throw authErrors.badJwt("invalid claim: sub claim must be a UUID");
    const user = await findUserById(this.db, claims.sub);
    if (!user) throw authErrors.userFromJwtMissing();
    if (typeof claims.session_id === "string") {
      const { rows } = await this.db.query("select 1 from auth.sessions where id = $1 and user_id = $2", [
        claims.session_id,
        user.id,
      ]);
      if (rows.length === 0) throw authErrors.sessionNotFound();
    }
    return { user, claims };
  }

  /** The caller of a /factors endpoint: a signed-in user, their session, and their address. */
  private async factorCaller(r: AuthRequest): Promise<FactorCaller> {
    const { user, claims } = await this.requireUser(r.req);
    if (typeof claims.session_id !== "string")
      throw authErrors.unexpected("A valid session and a registered user are required to enroll a factor");
    return { user, sessionId: claims.session_id, ip: r.req.socket.remoteAddress ?? "unknown" };
  }

  /** The admin API takes the secret key only (GoTrue: a service_role JWT). */
  private requireAdmin(req: IncomingMessage): void {
    const token = bearer(req);
    if (!token) throw authErrors.noAuthorization();
    if (keyRole(token) !== "service_role") throw authErrors.notAdmin();
  }

  // ---------------------------------------------------------------- sign-up and sign-in

  private async signup(r: AuthRequest): Promise<Reply> {
    const email = str(r.body.email);
    const password = str(r.body.password);
    const data = obj(r.body.data) ?? {};
    if (!email && str(r.body.phone)) throw new AuthError(400, "phone_provider_disabled", "Phone signups are disabled");
    if (!email && !password) throw new AuthError(422, "anonymous_provider_disabled", "Anonymous sign-ins are disabled");
    if (!email || !EMAIL_RE.test(email.trim())) throw authErrors.invalidEmail();
    if (!password) throw authErrors.validation("Signup requires a valid password", 422);
    checkPasswordStrength(password);
    const pkce = this.readPkce(r.body);
    const redirectTo = this.redirectTo(r);

    const existing = await findUserByEmail(this.db, email);
    if (existing) {
      if (!this.options.mailConfirmation) throw authErrors.userAlreadyExists();
      if (existing.email_confirmed_at) {
        // With confirmation on, GoTrue does not reveal that the address is taken:
        // it answers as for a new sign-up with a user that has no identities.
        return ok(this.obfuscatedUser(email, data));
      }
      const resent = await this.db.transaction(async (tx) => {
        const user = await this.sendConfirmation(tx, existing, redirectTo);
        return userJson(tx, user);
      });
      if (pkce) this.pendingPkce.set(existing.id, pkce);
      return ok(resent);
    }

    const passwordHash = await bcrypt.hash(password, BCRYPT_COST);
    try {
      const reply = await this.db.transaction(async (tx) => {
        const user = await insertUser(tx, {
          email,
          passwordHash,
          confirmed: !this.options.mailConfirmation,
          userMetadata: data,
        });
        if (this.options.mailConfirmation) {
          const pending = await this.sendConfirmation(tx, user, redirectTo);
          if (pkce) this.pendingPkce.set(user.id, pkce);
          return userJson(tx, pending);
        }
        return this.sessions.start(tx, user, "password");
      });
      return ok(reply);
    } catch (e) {
      if (e instanceof AuthError) throw e;
      throw userWriteError(e);
    }
  }

  private obfuscatedUser(email: string, data: Record<string, unknown>) {
    const now = new Date().toISOString();
    return {
      id: randomUUID(),
      aud: "authenticated",
      role: "authenticated",
      email: normalizeEmail(email),
      phone: "",
      confirmation_sent_at: now,
      app_metadata: { provider: "email", providers: ["email"] },
      user_metadata: data,
      identities: [],
      created_at: now,
      updated_at: now,
      is_anonymous: false,
    };
  }

  private async sendConfirmation(tx: Db, user: UserRow, redirectTo?: string): Promise<UserRow> {
    const { otp, tokenHash } = newOtp(user.email!);
    const { rows } = await tx.query<UserRow>(
      "update auth.users set confirmation_token = $2, confirmation_sent_at = now(), updated_at = now() where id = $1 returning *",
      [user.id, tokenHash],
    );
    await this.mail(tx, { to: user.email!, kind: "signup", tokenHash, otp, redirectTo });
    return rows[0];
  }

  private readPkce(body: Record<string, unknown>): PkceChallenge | undefined {
    const challenge = str(body.code_challenge);
    if (!challenge) return undefined;
    const method = (str(body.code_challenge_method) ?? "plain").toLowerCase();
    if (method !== "s256" && method !== "plain") throw authErrors.validation("Unsupported code challenge method");
    return { challenge, method };
  }

  private async token(r: AuthRequest): Promise<Reply> {
    const grant = r.url.searchParams.get("grant_type");
    if (grant === "password") return ok(await this.passwordGrant(r.body));
    if (grant === "refresh_token") return ok(await this.refreshGrant(r.body));
    if (grant === "pkce") return ok(await this.pkceGrant(r.body));
    throw authErrors.unsupportedGrant();
  }

  private async passwordGrant(body: Record<string, unknown>): Promise<SessionBody> {
    const email = str(body.email);
    const password = str(body.password);
    if (!email) {
      if (str(body.phone)) throw authErrors.invalidCredentials();
      throw authErrors.validation("missing email or phone");
    }
    const user = await findUserByEmail(this.db, email);
    // bcrypt runs even for unknown addresses so timing does not reveal which exist.
    const hash = user?.encrypted_password ?? timingHash();
    const matches = await bcrypt.compare(password ?? "", hash).catch(() => false);
    if (!user || !user.encrypted_password || !matches) throw authErrors.invalidCredentials();
    if (isBanned(user)) throw authErrors.userBanned();
    if (!user.email_confirmed_at) throw authErrors.emailNotConfirmed();
    return this.db.transaction((tx) => this.sessions.start(tx, user, "password"));
  }

  private async refreshGrant(body: Record<string, unknown>): Promise<SessionBody> {
    const presented = str(body.refresh_token);
    if (!presented) throw authErrors.refreshTokenNotFound();
    const reuseMs = this.options.refreshReuseSeconds * 1000;
    // Revoking a reused token's family must be committed even though the call
    // fails, so the transaction returns the error instead of throwing it.
    const outcome = await this.db.transaction(async (tx): Promise<SessionBody | AuthError> => {
      const { rows } = await tx.query<{
        id: number;
        token: string;
        user_id: string;
        session_id: string;
        revoked: boolean;
        updated_at: Date;
      }>(`select id, token, user_id, session_id, revoked, updated_at from auth.refresh_tokens where token = $1`, [
        presented,
      ]);
      const row = rows[0];
      if (!row) return authErrors.refreshTokenNotFound();
      const user = await findUserById(tx, row.user_id);
      if (!user) return authErrors.refreshTokenNotFound();
      if (isBanned(user)) return authErrors.userBanned();
      if (row.revoked) {
        // GoTrue (tokens/service.go): the parent of the session's active token may always be presented
        // again, and gets the active token back, since its client evidently lost the last refresh
        // response; another revoked token only within the reuse interval, which swaps it for a new one.
        const { rows: active } = await tx.query<{ token: string; parent: string | null }>(
          "select token, parent from auth.refresh_tokens where session_id = $1 and not revoked order by id desc limit 1",
          [row.session_id],
        );
        if (active[0] && active[0].parent === row.token)
          return this.sessions.body(tx, user, row.session_id, active[0].token);
        if (Date.now() - new Date(row.updated_at).getTime() >= reuseMs) {
          // A stolen token being replayed looks like this: end the whole session.
          await tx.query("update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1", [
            row.session_id,
          ]);
          return authErrors.refreshTokenAlreadyUsed();
        }
      }
      const next = randomToken();
      await tx.query("update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1", [row.id]);
      await tx.query("insert into auth.refresh_tokens (token, user_id, session_id, parent) values ($1, $2, $3, $4)", [
        next,
        row.user_id,
        row.session_id,
        row.token,
      ]);
      await tx.query("update auth.sessions set updated_at = now() where id = $1", [row.session_id]);
      return this.sessions.body(tx, user, row.session_id, next);
    });
    if (outcome instanceof AuthError) throw outcome;
    return outcome;
  }

  private async pkceGrant(body: Record<string, unknown>): Promise<SessionBody> {
    const code = str(body.auth_code);
    const verifier = str(body.code_verifier);
    if (!code || !verifier)
      throw authErrors.validation("invalid request: both auth code and code verifier should be non-empty");
    const flow = this.authCodes.get(code);
    if (!flow || Date.now() - flow.createdAt > AUTH_CODE_SECONDS * 1000) throw authErrors.flowStateNotFound();
    const expected = flow.method === "s256" ? createHash("sha256").update(verifier).digest("base64url") : verifier;
    if (expected !== flow.challenge) throw authErrors.badCodeVerifier();
    this.authCodes.delete(code);
    const user = await findUserById(this.db, flow.userId);
    if (!user) throw authErrors.userNotFound();
    return this.db.transaction((tx) => this.sessions.start(tx, user, flow.amr));
  }

  // ---------------------------------------------------------------- the signed-in user

  private async updateUser(r: AuthRequest): Promise<Reply> {
    const { user, claims } = await this.requireUser(r.req);
    const email = str(r.body.email);
    const password = str(r.body.password);
    const data = obj(r.body.data);
    let passwordHash: string | undefined;
    if (password !== undefined) {
      checkPasswordStrength(password);
      if (user.encrypted_password && (await bcrypt.compare(password, user.encrypted_password))) {
        throw authErrors.samePassword();
      }
      passwordHash = await bcrypt.hash(password, BCRYPT_COST);
    }
    const newEmail = email !== undefined && normalizeEmail(email) !== user.email ? normalizeEmail(email) : undefined;
    if (newEmail !== undefined) {
      if (!EMAIL_RE.test(newEmail)) throw authErrors.invalidEmail();
      if (await findUserByEmail(this.db, newEmail)) throw authErrors.emailExists();
    }
    const redirectTo = this.redirectTo(r);
    try {
      const updated = await this.db.transaction(async (tx) => {
        if (data) {
          await tx.query("update auth.users set raw_user_meta_data = $2, updated_at = now() where id = $1", [
            user.id,
            mergeMetadata(user.raw_user_meta_data, data),
          ]);
        }
        if (passwordHash) {
          await tx.query("update auth.users set encrypted_password = $2, updated_at = now() where id = $1", [
            user.id,
            passwordHash,
          ]);
          // As GoTrue: a new password ends the user's other sessions.
          await tx.query("delete from auth.sessions where user_id = $1 and id is distinct from $2", [
            user.id,
            typeof claims.session_id === "string" ? claims.session_id : null,
          ]);
        }
        if (newEmail) {
          if (this.options.mailConfirmation) {
            const { otp, tokenHash } = newOtp(newEmail);
            await tx.query(
              `update auth.users set email_change = $2, email_change_token_new = $3, email_change_sent_at = now(),
                      updated_at = now() where id = $1`,
              [user.id, newEmail, tokenHash],
            );
            await this.mail(tx, { to: newEmail, kind: "email_change", tokenHash, otp, redirectTo });
          } else {
            await this.applyEmailChange(tx, user.id, newEmail);
          }
        }
        const fresh = await findUserById(tx, user.id);
        return userJson(tx, fresh!);
      });
      return ok(updated);
    } catch (e) {
      if (e instanceof AuthError) throw e;
      throw userWriteError(e);
    }
  }

  private async applyEmailChange(tx: Db, userId: string, email: string): Promise<void> {
    await tx.query(
      `update auth.users set email = $2, email_change = null, email_change_token_new = null, email_change_sent_at = null,
              updated_at = now() where id = $1`,
      [userId, email],
    );
    await tx.query(
      `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text), updated_at = now()
        where user_id = $1 and provider = 'email'`,
      [userId, email],
    );
    await tx.query(
      `update auth.users set raw_user_meta_data = raw_user_meta_data || jsonb_build_object('email', $2::text)
        where id = $1 and raw_user_meta_data ? 'email'`,
      [userId, email],
    );
  }

  private async logout(r: AuthRequest): Promise<Reply> {
    const scope = r.url.searchParams.get("scope") ?? "global";
    if (!["global", "local", "others"].includes(scope)) throw authErrors.validation("Unsupported logout scope");
    const { user, claims } = await this.requireUser(r.req);
    const sessionId = typeof claims.session_id === "string" ? claims.session_id : null;
    if (scope === "global") {
      await this.db.query("delete from auth.sessions where user_id = $1", [user.id]);
    } else if (scope === "local") {
      await this.db.query("delete from auth.sessions where id = $1", [sessionId]);
    } else {
      await this.db.query("delete from auth.sessions where user_id = $1 and id is distinct from $2", [
        user.id,
        sessionId,
      ]);
    }
    return { status: 204 };
  }

  // ---------------------------------------------------------------- e-mail flows

  private async recover(r: AuthRequest): Promise<Reply> {
    const email = str(r.body.email);
    if (!email || !EMAIL_RE.test(email.trim())) throw authErrors.invalidEmail();
    const user = await findUserByEmail(this.db, email);
    // The answer is the same whether or not the address has an account.
    if (user) {
      const pkce = this.readPkce(r.body);
      await this.db.transaction(async (tx) => {
        const { otp, tokenHash } = newOtp(user.email!);
        await tx.query("update auth.users set recovery_token = $2, recovery_sent_at = now() where id = $1", [
          user.id,
          tokenHash,
        ]);
        await this.mail(tx, {
          to: user.email!,
          kind: "recovery",
          tokenHash,
          otp,
          redirectTo: this.redirectTo(r),
        });
      });
      if (pkce) this.pendingPkce.set(user.id, pkce);
    }
    return ok({});
  }

  private async resend(r: AuthRequest): Promise<Reply> {
    const type = str(r.body.type);
    const email = str(r.body.email);
    if (type !== "signup" && type !== "email_change") {
      throw authErrors.validation("Missing one of these types: signup, email_change");
    }
    if (!email) throw authErrors.invalidEmail();
    const redirectTo = this.redirectTo(r);
    await this.db.transaction(async (tx) => {
      if (type === "signup") {
        const user = await findUserByEmail(tx, email);
        if (user && !user.email_confirmed_at) await this.sendConfirmation(tx, user, redirectTo);
        return;
      }
      const { rows } = await tx.query<UserRow>("select * from auth.users where lower(email_change) = $1", [
        normalizeEmail(email),
      ]);
      const user = rows[0];
      if (!user) return;
      const { otp, tokenHash } = newOtp(user.email_change!);
      await tx.query("update auth.users set email_change_token_new = $2, email_change_sent_at = now() where id = $1", [
        user.id,
        tokenHash,
      ]);
      await this.mail(tx, { to: user.email_change!, kind: "email_change", tokenHash, otp, redirectTo });
    });
    return ok({});
  }

  /**
   * Finds the user a token belongs to and applies what it confirms. Tokens are
   * single-use and expire after OTP_SECONDS. Returns null for an unknown or expired token.
   */
  private async consumeToken(
    tx: Db,
    type: Verifiable,
    hash: string,
    email: string | undefined,
  ): Promise<{ user: UserRow; amr: AmrMethod; kind: MailKind } | null> {
    const columns: { column: "confirmation_token" | "recovery_token" | "email_change_token_new"; kind: MailKind }[] =
      type === "recovery"
        ? [{ column: "recovery_token", kind: "recovery" }]
        : type === "email_change"
          ? [{ column: "email_change_token_new", kind: "email_change" }]
          : type === "email" || type === "magiclink"
            ? [
                { column: "confirmation_token", kind: "signup" },
                { column: "recovery_token", kind: "recovery" },
              ]
            : [{ column: "confirmation_token", kind: "signup" }];
    const sentAt = {
      confirmation_token: "confirmation_sent_at",
      recovery_token: "recovery_sent_at",
      email_change_token_new: "email_change_sent_at",
    } as const;
    for (const { column, kind } of columns) {
      const { rows } = await tx.query<UserRow>(
        `select * from auth.users
          where ${column} = $1 and deleted_at is null
            and ${sentAt[column]} > now() - make_interval(secs => $2)
            and ($3::text is null or lower(coalesce(${column === "email_change_token_new" ? "email_change" : "email"}, '')) = $3)`,
        [hash, OTP_SECONDS, email ? normalizeEmail(email) : null],
      );
      const user = rows[0];
      if (!user) continue;
      if (kind === "email_change") {
        await this.applyEmailChange(tx, user.id, user.email_change!);
      } else {
        await tx.query(
          `update auth.users set ${column} = null, email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
            where id = $1`,
          [user.id],
        );
        await markEmailVerified(tx, user.id);
      }
      const fresh = await findUserById(tx, user.id);
      return {
        user: fresh!,
        amr: kind === "recovery" ? "recovery" : kind === "email_change" ? "email_change" : "otp",
        kind,
      };
    }
    return null;
  }

  private verifyParams(source: Record<string, unknown>): { type: Verifiable; hash: string; email?: string } {
    const type = str(source.type);
    if (!type || !VERIFY_TYPES.has(type)) throw authErrors.validation("Verify requires a verification type");
    const tokenHashParam = str(source.token_hash);
    const token = str(source.token);
    const email = str(source.email);
    if (tokenHashParam) return { type: type as Verifiable, hash: tokenHashParam };
    if (token && email) {
      // A six-digit code is matched through its hash with the e-mail address, as GoTrue does.
      return { type: type as Verifiable, hash: /^\d{6}$/.test(token) ? tokenHash(email, token) : token, email };
    }
    if (str(source.phone)) throw new AuthError(400, "phone_provider_disabled", "Phone logins are disabled");
    throw authErrors.validation("Verify requires either a token or a token hash");
  }

  private async verifyPost(r: AuthRequest): Promise<Reply> {
    const { type, hash, email } = this.verifyParams(r.body);
    const session = await this.db.transaction(async (tx) => {
      const found = await this.consumeToken(tx, type, hash, email);
      if (!found) return null;
      return this.sessions.start(tx, found.user, found.amr);
    });
    if (!session) throw authErrors.otpExpired();
    this.pendingPkce.delete(String(session.user.id));
    return ok(session);
  }

  /**
   * The link form GoTrue puts in its default templates (/auth/v1/verify?token=…&type=…&redirect_to=…).
   * Redirects to redirect_to with ?code=… when the flow began with a PKCE
   * challenge, else with the session in the URL fragment (implicit flow).
   */
  private async verifyRedirect(r: AuthRequest): Promise<Reply> {
    const q = Object.fromEntries(r.url.searchParams);
    const target = new URL(allowedRedirect(q.redirect_to, this.options.redirects) ?? this.options.redirects.siteUrl);
    let params: { type: Verifiable; hash: string; email?: string };
    try {
      params = this.verifyParams({ ...q, token_hash: q.token_hash ?? q.token, token: undefined });
    } catch (e) {
      return redirectWithError(target, e as AuthError);
    }
    const found = await this.db.transaction(async (tx) => {
      const consumed = await this.consumeToken(tx, params.type, params.hash, params.email);
      if (!consumed) return null;
      const pkce = this.pendingPkce.get(consumed.user.id);
      if (pkce) return { consumed, pkce, session: undefined };
      return { consumed, pkce, session: await this.sessions.start(tx, consumed.user, consumed.amr) };
    });
    if (!found) return redirectWithError(target, authErrors.otpExpired());
    if (found.pkce) {
      this.pendingPkce.delete(found.consumed.user.id);
      const code = randomUUID();
      this.authCodes.set(code, {
        ...found.pkce,
        userId: found.consumed.user.id,
        amr: found.consumed.amr,
        createdAt: Date.now(),
      });
      target.searchParams.set("code", code);
      return redirect(target);
    }
    const s = found.session!;
    target.hash = new URLSearchParams({
      access_token: s.access_token,
      expires_at: String(s.expires_at),
      expires_in: String(s.expires_in),
      refresh_token: s.refresh_token,
      token_type: s.token_type,
      type: params.type,
    }).toString();
    return redirect(target);
  }

  // ---------------------------------------------------------------- admin

  private async listUsers(r: AuthRequest): Promise<Reply> {
    this.requireAdmin(r.req);
    const page = Math.max(1, Number.parseInt(r.url.searchParams.get("page") || "1", 10) || 1);
    const perPage = Math.min(1000, Math.max(1, Number.parseInt(r.url.searchParams.get("per_page") || "50", 10) || 50));
    const { rows: countRows } = await this.db.query<{ n: number }>(
      "select count(*)::int as n from auth.users where deleted_at is null",
    );
    const total = countRows[0].n;
    const { rows } = await this.db.query<UserRow & { identities: unknown }>(
      `select u.*, coalesce((select json_agg(i order by i.created_at) from auth.identities i where i.user_id = u.id), '[]') as identities
         from auth.users u where u.deleted_at is null
        order by u.created_at desc, u.id
        limit $1 offset $2`,
      [perPage, (page - 1) * perPage],
    );
    const users = rows.map((u) =>
      shapeUser(
        u,
        (u.identities as Parameters<typeof shapeUser>[1]).map((i) => ({
          ...i,
          created_at: i.created_at && new Date(i.created_at),
          updated_at: i.updated_at && new Date(i.updated_at),
          last_sign_in_at: i.last_sign_in_at && new Date(i.last_sign_in_at),
        })),
      ),
    );
    // GoTrue's pagination headers; supabase-js reads the page number right after "page=".
    const lastPage = Math.max(1, Math.ceil(total / perPage));
    const links: string[] = [];
    if (page < lastPage) links.push(`</admin/users?page=${page + 1}&per_page=${perPage}>; rel="next"`);
    links.push(`</admin/users?page=${lastPage}&per_page=${perPage}>; rel="last"`);
    return {
      status: 200,
      body: { users, aud: "authenticated" },
      headers: { "X-Total-Count": String(total), Link: links.join(", ") },
    };
  }

  private async createUser(r: AuthRequest): Promise<Reply> {
    this.requireAdmin(r.req);
    const b = r.body;
    const email = str(b.email);
    const password = str(b.password);
    if (!email) {
      if (str(b.phone)) throw new AuthError(400, "phone_provider_disabled", "Phone logins are disabled");
      throw authErrors.validation("Unable to validate email address: invalid format");
    }
    if (!EMAIL_RE.test(email.trim())) throw authErrors.invalidEmail();
    if (password !== undefined) checkPasswordStrength(password);
    const id = str(b.id);
    if (id !== undefined && !UUID_RE.test(id)) throw authErrors.validation("id must be a UUID");
    if (await findUserByEmail(this.db, email)) throw authErrors.emailExists();
    const bannedUntil = str(b.ban_duration) ? parseBanDuration(str(b.ban_duration)!) : null;
    const passwordHash = password ? await bcrypt.hash(password, BCRYPT_COST) : null;
    try {
      const user = await this.db.transaction(async (tx) => {
        const created = await insertUser(tx, {
          id,
          email,
          passwordHash,
          confirmed: b.email_confirm === true,
          userMetadata: obj(b.user_metadata) ?? obj(b.data) ?? {},
          appMetadata: obj(b.app_metadata),
          role: str(b.role),
        });
        if (bannedUntil)
          await tx.query("update auth.users set banned_until = $2 where id = $1", [created.id, bannedUntil]);
        return userJson(tx, (await findUserById(tx, created.id))!);
      });
      return ok(user);
    } catch (e) {
      if (e instanceof AuthError) throw e;
      throw userWriteError(e);
    }
  }

  private async adminUpdateUser(user: UserRow, b: Record<string, unknown>): Promise<Reply> {
    const email = str(b.email);
    const password = str(b.password);
    if (password !== undefined) checkPasswordStrength(password);
    const newEmail = email !== undefined && normalizeEmail(email) !== user.email ? normalizeEmail(email) : undefined;
    if (newEmail !== undefined) {
      if (!EMAIL_RE.test(newEmail)) throw authErrors.invalidEmail();
      if (await findUserByEmail(this.db, newEmail)) throw authErrors.emailExists();
    }
    const passwordHash = password ? await bcrypt.hash(password, BCRYPT_COST) : undefined;
    const banDuration = str(b.ban_duration);
    const bannedUntil = banDuration !== undefined ? parseBanDuration(banDuration) : undefined;
    try {
      const updated = await this.db.transaction(async (tx) => {
        if (newEmail) await this.applyEmailChange(tx, user.id, newEmail);
        if (passwordHash)
          await tx.query("update auth.users set encrypted_password = $2 where id = $1", [user.id, passwordHash]);
        if (b.email_confirm === true) {
          await tx.query(
            "update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()) where id = $1",
            [user.id],
          );
          await markEmailVerified(tx, user.id);
        }
        const userMeta = obj(b.user_metadata) ?? obj(b.data);
        if (userMeta) {
          const current = (await findUserById(tx, user.id))!.raw_user_meta_data;
          await tx.query("update auth.users set raw_user_meta_data = $2 where id = $1", [
            user.id,
            mergeMetadata(current, userMeta),
          ]);
        }
        const appMeta = obj(b.app_metadata);
        if (appMeta) {
          await tx.query("update auth.users set raw_app_meta_data = $2 where id = $1", [
            user.id,
            mergeMetadata(user.raw_app_meta_data, appMeta),
          ]);
        }
        if (str(b.role)) await tx.query("update auth.users set role = $2 where id = $1", [user.id, str(b.role)]);
        if (bannedUntil !== undefined) {
          await tx.query("update auth.users set banned_until = $2 where id = $1", [user.id, bannedUntil]);
          // A ban ends the user's sessions, as in GoTrue.
          if (bannedUntil) await tx.query("delete from auth.sessions where user_id = $1", [user.id]);
        }
        await tx.query("update auth.users set updated_at = now() where id = $1", [user.id]);
        return userJson(tx, (await findUserById(tx, user.id))!);
      });
      return ok(updated);
    } catch (e) {
      if (e instanceof AuthError) throw e;
      throw userWriteError(e);
    }
  }

  private async adminDeleteUser(user: UserRow, b: Record<string, unknown>): Promise<Reply> {
    if (b.should_soft_delete === true) {
      // GoTrue's soft delete keeps the row (and what references it) but makes it unusable.
      await this.db.transaction(async (tx) => {
        await tx.query(
          `update auth.users set deleted_at = now(), email = null, encrypted_password = null, confirmation_token = null,
                  recovery_token = null, email_change = null, email_change_token_new = null,
                  raw_user_meta_data = '{}'::jsonb, updated_at = now()
            where id = $1`,
          [user.id],
        );
        await tx.query("delete from auth.identities where user_id = $1", [user.id]);
        await tx.query("delete from auth.sessions where user_id = $1", [user.id]);
      });
    } else {
      await this.db.query("delete from auth.users where id = $1", [user.id]);
    }
    return ok({});
  }
}

function ok(body: unknown): Reply {
  return { status: 200, body };
}

function redirect(target: URL): Reply {
  return { status: 303, headers: { Location: target.toString() } };
}

/** The user cannot be known from a bad link, so the error goes in the fragment, as GoTrue does for implicit flows. */
function redirectWithError(target: URL, e: AuthError): Reply {
  target.hash = new URLSearchParams({
    error: e.status === 403 ? "access_denied" : "invalid_request",
    error_code: e.code,
    error_description: e.message,
  }).toString();
  return redirect(target);
}
