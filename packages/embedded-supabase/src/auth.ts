// GoTrue-compatible auth under /auth/v1: the endpoints supabase-js calls for
// e-mail + password accounts, sessions with rotating refresh tokens, e-mail
// confirmation and recovery, and the admin user API. Status codes, error codes
// and JSON shapes follow GoTrue (supabase/auth) so the app cannot tell the
// difference from hosted Supabase.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type { PGlite } from "@electric-sql/pglite";
import bcrypt from "bcryptjs";
import { AuthError, authErrors, checkPasswordStrength, type PasswordPolicy } from "./auth-errors";
import { actionLink, paginate, paginationLinks } from "./auth-links";
import {
  confirmUser,
  findUserByEmail,
  findUserById,
  insertUser,
  isBanned,
  markIdentityEmailVerified,
  mergeMetadata,
  newOtp,
  type EmailOtpSettings,
  normalizeEmail,
  randomToken,
  SessionIssuer,
  shapeUser,
  tokenHash,
  userJson,
  UUID_RE,
  validateEmail,
  type AmrMethod,
  type Db,
  type SessionBody,
  type UserRow,
} from "./auth-store";
import { bearer, keyRole, visitorAddress } from "./callers";
import type { Reply } from "./http";
import { TokenError, type Claims, type TokenSigner } from "./jwt";
import { verifyCaptcha, type CaptchaSettings } from "./captcha";
import { EmailCodeGuard } from "./email-codes";
import { queueMail, type OutgoingMail } from "./mail";
import { hookFunction, SecondFactors, type FactorCaller } from "./mfa";
import { allowedRedirect, type RedirectRules } from "./origins";
import { RateLimiter, type EmailPool, type LimitedAction, type RateLimits } from "./rate-limit";

/**
 * bcrypt's cost: GoTrue's DefaultHashCost is bcrypt's default, 10; its QuickHashCost, bcrypt's minimum, 4, is what
 * GoTrue's own test suite sets (crypto.PasswordHashCost). A hash records its cost, so either kind compares anywhere.
 */
export const PASSWORD_HASH_COSTS = { default: 10, quick: 4 } as const;
export type PasswordHashCost = keyof typeof PASSWORD_HASH_COSTS;
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
  /** The product auth mail names. */
  appName: string;
  /** GoTrue's rate limits. */
  rateLimits: RateLimits;
  /** GoTrue's MFA verification attempt hook, `pg-functions://…`; none when omitted. */
  mfaVerificationAttemptHook?: string;
  /** How e-mailed codes are made (GoTrue's otp_length and otp_expiry). */
  emailOtp: EmailOtpSettings;
  /** GoTrue's minimum_password_length and password_requirements. */
  passwordPolicy: PasswordPolicy;
  /** GoTrue's [auth.captcha]: when set, sign-ups, e-mail sign-ins, resets, resends and password sign-ins need a token. */
  captcha?: CaptchaSettings;
  /** bcrypt's cost for new hashes (PASSWORD_HASH_COSTS). */
  passwordHashCost: number;
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

type VerifyType = "signup" | "invite" | "magiclink" | "email" | "recovery" | "email_change";
const VERIFY_TYPES: ReadonlySet<string> = new Set<VerifyType>([
  "signup",
  "invite",
  "magiclink",
  "email",
  "recovery",
  "email_change",
]);

/** A link's token_hash, or a code's hash with the (validated) address it was sent to. */
interface VerifyParams {
  type: string;
  hash: string;
  email?: string;
}

type TokenColumn = "confirmation_token" | "recovery_token" | "email_change_token_current" | "email_change_token_new";

/** GoTrue's answer when the first of the two e-mail change links or codes is confirmed. */
const SINGLE_CONFIRMATION_ACCEPTED =
  "Confirmation link accepted. Please proceed to confirm link sent to the other email";

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

function obj(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
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
    throw authErrors.validation(`invalid format for ban duration: time: invalid duration ${JSON.stringify(value)}`);
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

/** A random password that meets the LabCash policy (GoTrue's password.Generate for users given none). */
function randomPassword(): string {
  return `${randomBytes(48).toString("base64url")}aA1`;
}

const timingHashes = new Map<number, string>();
/**
 * A real bcrypt hash of a random password at the server's cost, compared against when the address is unknown: an
 * invalid stand-in fails at once, and the 2 ms against 80 ms told which accounts exist.
 */
function timingHash(cost: number): string {
  let hash = timingHashes.get(cost);
  if (!hash) timingHashes.set(cost, (hash = bcrypt.hashSync(randomUUID(), cost)));
  return hash;
}

export class AuthService {
  private readonly sessions: SessionIssuer;
  /** PKCE challenges of pending e-mail flows, by user: consumed by GET /verify. */
  private readonly pendingPkce = new Map<string, PkceChallenge>();
  /** Auth codes from GET /verify, exchanged by POST /token?grant_type=pkce. Short-lived, so memory is enough. */
  private readonly authCodes = new Map<string, AuthCode>();
  private readonly limiter: RateLimiter;
  private readonly factors: SecondFactors;
  private readonly codeGuard: EmailCodeGuard;

  constructor(private readonly options: AuthOptions) {
    this.sessions = new SessionIssuer(options.signer, options.issuer);
    this.limiter = new RateLimiter(options.rateLimits);
    this.codeGuard = new EmailCodeGuard(options.rateLimits.wrongEmailCodesBeforeVoid);
    this.factors = new SecondFactors(
      options.db,
      this.sessions,
      () => new URL(options.redirects.siteUrl).host,
      this.limiter,
      options.mfaVerificationAttemptHook && hookFunction(options.mfaVerificationAttemptHook),
    );
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
        return ok({ version: "embedded", name: "GoTrue", description: "Embedded GoTrue-compatible auth" });
      case "GET /settings":
        return ok(this.settings());
      case "GET /.well-known/jwks.json":
        return { status: 200, body: this.options.signer.jwks(), headers: { "Cache-Control": "public, max-age=600" } };
      case "POST /signup":
        this.limit("sign_in", r);
        await this.checkCaptcha(r);
        return this.signup(r);
      case "POST /token":
        this.limit(r.url.searchParams.get("grant_type") === "refresh_token" ? "refresh" : "sign_in", r);
        if (r.url.searchParams.get("grant_type") === "password") await this.checkCaptcha(r);
        return this.token(r);
      case "GET /user":
        return ok(await userJson(this.db, (await this.requireUser(r.req)).user));
      case "PUT /user":
        return this.updateUser(r);
      case "POST /logout":
        return this.logout(r);
      case "POST /recover":
        await this.checkCaptcha(r);
        return this.recover(r);
      case "POST /verify":
        this.limit("verify", r);
        return this.verifyPost(r);
      case "GET /verify":
        this.limit("verify", r);
        return this.verifyRedirect(r);
      case "POST /resend":
        await this.checkCaptcha(r);
        return this.resend(r);
      case "POST /otp":
        this.limit("otp", r);
        await this.checkCaptcha(r);
        return this.otp(r);
      case "GET /reauthenticate":
        return this.reauthenticate(r);
      case "GET /admin/users":
        return this.listUsers(r);
      case "POST /admin/users":
        return this.createUser(r);
      case "POST /invite":
        return this.invite(r);
      case "POST /admin/generate_link":
        return this.generateLink(r);
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

  /** Refuses the request with GoTrue's 429 when its visitor is over the limit for `action`. */
  private limit(action: LimitedAction, r: AuthRequest): void {
    if (!this.limiter.allow(action, visitorAddress(r.req))) throw authErrors.overRequestRateLimit();
  }

  /**
   * GoTrue's verifyCaptcha: with [auth.captcha] on, the request's `gotrue_meta_security.captcha_token` must pass
   * the provider's siteverify, except for a caller with the secret key (GoTrue skips admin callers: the site's
   * server, which sends it to have its visitors counted apart, checks its own CAPTCHA past its own thresholds).
   */
  private async checkCaptcha(r: AuthRequest): Promise<void> {
    const { captcha } = this.options;
    if (!captcha) return;
    const token = bearer(r.req);
    if (token && keyRole(token) === "service_role") return;
    const meta = obj(r.body.gotrue_meta_security);
    const captchaToken = (str(meta?.captcha_token) ?? "").trim();
    if (!captchaToken)
      throw new AuthError(400, "captcha_failed", "captcha protection: request disallowed (no captcha_token found)");
    let verdict;
    try {
      verdict = await verifyCaptcha(captcha, captchaToken, visitorAddress(r.req));
    } catch {
      throw authErrors.unexpected("captcha verification process failed");
    }
    if (!verdict.success)
      throw new AuthError(
        400,
        "captcha_failed",
        `captcha protection: request disallowed (${verdict["error-codes"].join(", ")})`,
      );
  }

  /**
   * Counts a request for an auth e-mail to `address` for the request's visitor, or refuses it with GoTrue's 429:
   * one per address per emailSecondsApart and a few an hour, and a few per visitor per hour of each kind in `pools`
   * (rate-limit.ts allowEmail). Called before the address is looked up wherever the answer must not tell whether an
   * account uses it.
   */
  private allowEmail(r: AuthRequest, address: string, pools: readonly EmailPool[]): void {
    const verdict = this.limiter.allowEmail(normalizeEmail(address), visitorAddress(r.req), pools);
    if (verdict.ok) return;
    if (verdict.reason === "too_soon") throw authErrors.emailTooSoon(verdict.retryAfterSeconds);
    throw authErrors.overEmailSendRateLimit();
  }

  /** Queues an auth e-mail within every limit, for flows whose address is no secret (a signed-in user's, an admin's). */
  private async mail(r: AuthRequest, tx: Db, message: OutgoingMail, pool: EmailPool = "account"): Promise<void> {
    this.allowEmail(r, message.to, [pool]);
    await this.queue(tx, message);
  }

  /**
   * Queues an auth e-mail (no limits: the caller has applied them). Its code starts with a full allowance of wrong
   * tries (EmailCodeGuard) only now that it goes: a refused request leaves the code outstanding with what it has
   * left. The reauthentication nonce is not checked by /verify, so it leaves the address's count alone.
   */
  private queue(tx: Db, message: OutgoingMail): Promise<void> {
    const { redirects, appName, emailOtp } = this.options;
    if (message.kind !== "reauthentication") this.codeGuard.reset(normalizeEmail(message.to));
    return queueMail(tx, { siteUrl: redirects.siteUrl, appName, otpExpirySeconds: emailOtp.expirySeconds }, message);
  }

  /** A new code for `address` and its hash as stored (GoTrue's sha224 of address and code). */
  private newCode(address: string): { otp: string; tokenHash: string } {
    return newOtp(address, this.options.emailOtp.length);
  }

  /**
   * A wrong code typed for `address`: counted, and at the allowance every code outstanding for the address is
   * cleared (its sign-up, link, recovery and e-mail change tokens), whoever typed the wrong ones. Committed on
   * its own, since the verification that found the code wrong is rolled back.
   */
  private async wrongCode(address: string): Promise<void> {
    if (!this.codeGuard.recordWrong(address)) return;
    await this.db.transaction(async (tx) => {
      await tx.query(
        `update auth.users set confirmation_token = null, recovery_token = null, email_change_token_current = null
          where lower(email) = $1 and deleted_at is null`,
        [address],
      );
      await tx.query(
        "update auth.users set email_change_token_new = null where lower(email_change) = $1 and deleted_at is null",
        [address],
      );
    });
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

  /** True when the user has a verified second factor and this session has not given it (aal1). */
  private async needsSecondStep(user: UserRow, claims: Claims): Promise<boolean> {
    const { rows } = await this.db.query<{ aal: string | null }>(
      `select s.aal from auth.sessions s
        where s.id = $2 and exists (select 1 from auth.mfa_factors f where f.user_id = $1 and f.status = 'verified')`,
      [user.id, typeof claims.session_id === "string" ? claims.session_id : null],
    );
    return rows.length > 0 && rows[0].aal !== "aal2";
  }

  /** The caller of a /factors endpoint: a signed-in user, their session, and their address. */
  private async factorCaller(r: AuthRequest): Promise<FactorCaller> {
    const { user, claims } = await this.requireUser(r.req);
    if (typeof claims.session_id !== "string")
      throw authErrors.unexpected("A valid session and a registered user are required to enroll a factor");
    return { user, sessionId: claims.session_id, ip: visitorAddress(r.req) };
  }

  /** The admin API takes the secret key only (GoTrue: a service_role JWT). */
  private requireAdmin(req: IncomingMessage): void {
    const token = bearer(req);
    if (!token) throw authErrors.noAuthorization();
    if (keyRole(token) !== "service_role") throw authErrors.notAdmin();
  }

  // ---------------------------------------------------------------- sign-up and sign-in

  private async signup(r: AuthRequest): Promise<Reply> {
    const rawEmail = str(r.body.email);
    const phone = str(r.body.phone);
    const password = str(r.body.password);
    const data = obj(r.body.data) ?? {};
    // GoTrue's order: no address at all is an anonymous sign-in; then the password; then the address.
    if (!rawEmail && !phone) throw authErrors.anonymousDisabled();
    if (!password) throw authErrors.validation("Signup requires a valid password");
    checkPasswordStrength(password, this.options.passwordPolicy);
    if (rawEmail && phone)
      throw authErrors.validation("Only an email address or phone number should be provided on signup.");
    if (!rawEmail) throw authErrors.phoneDisabled("signups");
    const email = validateEmail(rawEmail);
    const pkce = this.readPkce(r.body);
    const redirectTo = this.redirectTo(r);
    // With confirmation on, the answer must not tell whether the address is taken: the confirmation mail's
    // request is counted before the look-up, against the allowances for mail to new addresses.
    if (this.options.mailConfirmation) this.allowEmail(r, email, ["signup"]);

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

    const passwordHash = await bcrypt.hash(password, this.options.passwordHashCost);
    try {
      const reply = await this.db.transaction(async (tx) => {
        const user = await insertUser(tx, {
          email,
          passwordHash,
          confirmed: !this.options.mailConfirmation,
          userMetadata: data,
          signup: true,
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

  /** A sign-up confirmation mail, whose request the caller has counted (allowEmail, the allowance for new addresses). */
  private async sendConfirmation(tx: Db, user: UserRow, redirectTo?: string): Promise<UserRow> {
    const { otp, tokenHash } = this.newCode(user.email!);
    const { rows } = await tx.query<UserRow>(
      "update auth.users set confirmation_token = $2, confirmation_sent_at = now(), updated_at = now() where id = $1 returning *",
      [user.id, tokenHash],
    );
    await this.queue(tx, { to: user.email!, kind: "signup", otp, redirectTo });
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
    if (grant === "password") return ok(await this.passwordGrant(r.body, visitorAddress(r.req)));
    if (grant === "refresh_token") return ok(await this.refreshGrant(r.body));
    if (grant === "pkce") return ok(await this.pkceGrant(r.body));
    throw authErrors.unsupportedGrant();
  }

  /**
   * A password sign-in. Wrong passwords are counted per address typed (known or not, so the answers do
   * not tell which exist): the visitor who typed them cools down on that address, and each further wrong
   * answer for it is held back a little longer (rate-limit.ts recordPassword); the right password from
   * anyone else is answered at once.
   */
  private async passwordGrant(body: Record<string, unknown>, visitor: string): Promise<SessionBody> {
    const email = str(body.email);
    const password = str(body.password);
    if (!email) {
      if (str(body.phone)) throw authErrors.invalidCredentials();
      throw authErrors.validation("missing email or phone");
    }
    const account = normalizeEmail(email);
    const coolDown = this.limiter.passwordCoolDown(account, visitor);
    if (coolDown > 0) throw authErrors.tooManyWrongPasswords(coolDown);
    const user = await findUserByEmail(this.db, email);
    // bcrypt runs even for unknown addresses so timing does not reveal which exist.
    const hash = user?.encrypted_password ?? timingHash(this.options.passwordHashCost);
    const matches = await bcrypt.compare(password ?? "", hash).catch(() => false);
    const right = Boolean(user?.encrypted_password) && matches;
    const holdBack = this.limiter.recordPassword(account, visitor, right);
    if (!user || !right) {
      if (holdBack > 0) await sleep(holdBack);
      throw authErrors.invalidCredentials();
    }
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
    const rawEmail = str(r.body.email);
    const password = str(r.body.password);
    const data = obj(r.body.data);
    // GoTrue's validateUserUpdateParams: an address, when given, must be valid even if unchanged.
    const email = rawEmail ? validateEmail(rawEmail) : undefined;
    if (password !== undefined) checkPasswordStrength(password, this.options.passwordPolicy);
    const newEmail = email !== undefined && email !== user.email ? email : undefined;
    // GoTrue's UserUpdate: with a verified second factor, the password and address change at aal2 only.
    if ((password || newEmail) && (await this.needsSecondStep(user, claims))) throw authErrors.aal2ForUpdate();
    if (newEmail !== undefined && (await findUserByEmail(this.db, newEmail))) throw authErrors.emailExists();
    let passwordHash: string | undefined;
    if (password !== undefined) {
      if (user.encrypted_password && (await bcrypt.compare(password, user.encrypted_password))) {
        throw authErrors.samePassword();
      }
      passwordHash = await bcrypt.hash(password, this.options.passwordHashCost);
    }
    const redirectTo = this.redirectTo(r);
    const pkce = newEmail ? this.readPkce(r.body) : undefined;
    try {
      const updated = await this.db.transaction(async (tx) => {
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
        if (data) {
          await tx.query("update auth.users set raw_user_meta_data = $2, updated_at = now() where id = $1", [
            user.id,
            mergeMetadata(user.raw_user_meta_data, data),
          ]);
        }
        // GoTrue (user.go): a permanent user's new address always waits for its confirmation links,
        // whether or not sign-ups need confirming; only an anonymous user's is applied at once.
        if (newEmail) await this.sendEmailChange(r, tx, (await findUserById(tx, user.id))!, newEmail, redirectTo);
        return userJson(tx, (await findUserById(tx, user.id))!);
      });
      if (pkce) this.pendingPkce.set(user.id, pkce);
      return ok(updated);
    } catch (e) {
      if (e instanceof AuthError) throw e;
      throw userWriteError(e);
    }
  }

  /**
   * GoTrue's sendEmailChange with secure e-mail change on (the Supabase default, and
   * double_confirm_changes in supabase/config.toml): the new address is kept in email_change, and a
   * link and code go to the new address and another to the current one. Each follows its own token
   * (email_change_token_new / _current); confirm status starts again at 0.
   */
  private async sendEmailChange(
    r: AuthRequest,
    tx: Db,
    user: UserRow,
    newEmail: string,
    redirectTo?: string,
    { counted = false } = {},
  ): Promise<void> {
    const deliver = (message: OutgoingMail) => (counted ? this.queue(tx, message) : this.mail(r, tx, message));
    const fresh = this.newCode(newEmail);
    const current = user.email ? this.newCode(user.email) : undefined;
    await tx.query(
      `update auth.users set email_change = $2, email_change_token_new = $3, email_change_token_current = $4,
              email_change_confirm_status = 0, email_change_sent_at = now(), updated_at = now()
        where id = $1`,
      [user.id, newEmail, fresh.tokenHash, current?.tokenHash ?? null],
    );
    await deliver({
      to: newEmail,
      kind: "email_change",
      otp: fresh.otp,
      redirectTo,
    });
    if (current) {
      await deliver({
        to: user.email!,
        kind: "email_change_current",
        otp: current.otp,
        redirectTo,
        newEmail,
      });
    }
  }

  /**
   * GoTrue's emailChangeVerify. With secure change on, sign-ups needing confirmation (GoTrue's
   * mailer_autoconfirm off) and both tokens out, the first link or code only records itself: its
   * token is spent, confirm status becomes 1, and null is answered (the caller says "Confirmation link
   * accepted…"). Otherwise, and for the second, the change is made: the address moves from
   * email_change to email, the e-mail identity takes it as verified, an unconfirmed user is confirmed.
   * user_metadata is left as it is, as GoTrue leaves it.
   */
  private async verifyEmailChange(tx: Db, user: UserRow, hash: string): Promise<UserRow | null> {
    if (this.options.mailConfirmation && user.email && (user.email_change_confirm_status ?? 0) === 0) {
      const column = hash === user.email_change_token_current ? "email_change_token_current" : "email_change_token_new";
      await tx.query(
        `update auth.users set ${column} = null, email_change_confirm_status = 1, updated_at = now() where id = $1`,
        [user.id],
      );
      return null;
    }
    const email = user.email_change!;
    await tx.query(
      `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text, 'email_verified', true),
              updated_at = now()
        where user_id = $1 and provider = 'email'`,
      [user.id, email],
    );
    const { rows } = await tx.query<UserRow>(
      `update auth.users set email = $2, email_change = null, email_change_token_current = null,
              email_change_token_new = null, email_change_confirm_status = 0, updated_at = now()
        where id = $1 returning *`,
      [user.id, email],
    );
    return rows[0].email_confirmed_at ? rows[0] : confirmUser(tx, user.id);
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
    const rawEmail = str(r.body.email);
    if (!rawEmail) throw authErrors.validation("Password recovery requires an email");
    const email = validateEmail(rawEmail);
    const pkce = this.readPkce(r.body);
    // The answer is the same whether or not the address has an account: the request is counted before the
    // address is looked up, so a refusal says nothing about the account either.
    this.allowEmail(r, email, ["account"]);
    const user = await findUserByEmail(this.db, email);
    if (user) {
      await this.db.transaction(async (tx) => {
        const { otp, tokenHash } = this.newCode(user.email!);
        await tx.query("update auth.users set recovery_token = $2, recovery_sent_at = now() where id = $1", [
          user.id,
          tokenHash,
        ]);
        await this.queue(tx, { to: user.email!, kind: "recovery", otp, redirectTo: this.redirectTo(r) });
      });
      if (pkce) this.pendingPkce.set(user.id, pkce);
    }
    return ok({});
  }

  /** GoTrue's resend.go: the address is always the account's current one, also for email_change. */
  private async resend(r: AuthRequest): Promise<Reply> {
    const type = str(r.body.type);
    const rawEmail = str(r.body.email);
    const phone = str(r.body.phone);
    if (!type || !["signup", "email_change", "sms", "phone_change"].includes(type))
      throw authErrors.validation("Missing one of these types: signup, email_change, sms, phone_change");
    if (!rawEmail && type === "signup") throw authErrors.validation("Type provided requires an email address");
    if (!phone && type === "sms") throw authErrors.validation("Type provided requires a phone number");
    if (rawEmail && phone) throw authErrors.validation("Only an email address or phone number should be provided.");
    if (phone) throw authErrors.phoneDisabled("logins");
    if (!rawEmail) throw authErrors.validation("Missing email address or phone number");
    const email = validateEmail(rawEmail);
    const redirectTo = this.redirectTo(r);
    // Counted before the look-up (unlike GoTrue), so the answer says nothing about the address.
    this.allowEmail(r, email, [type === "signup" ? "signup" : "account"]);
    await this.db.transaction(async (tx) => {
      const user = await findUserByEmail(tx, email);
      if (!user) return;
      if (type === "signup" && !user.email_confirmed_at) await this.sendConfirmation(tx, user, redirectTo);
      if (type === "email_change" && user.email_change)
        await this.sendEmailChange(r, tx, user, user.email_change, redirectTo, { counted: true });
    });
    return ok({});
  }

  /**
   * GoTrue's POST /otp for an address (otp.go, magic_link.go): a sign-in link and code by e-mail. A new
   * or unconfirmed address is signed up first (with a random password and the request's `data`) and
   * gets the confirmation mail instead, unless `create_user` is false, which GoTrue answers 422
   * otp_disabled for an unknown address. Phone OTP is refused as a project without SMS is.
   *
   * Unlike GoTrue, which checks its 60 s per address only for an existing user, the e-mail allowance is
   * counted before the address is looked up (as a reset's is): a second request within the minute is
   * refused for every address, known or not, so the refusal says nothing about the account.
   */
  private async otp(r: AuthRequest): Promise<Reply> {
    const b = r.body;
    const rawEmail = str(b.email);
    const phone = str(b.phone);
    if (rawEmail && phone) throw authErrors.validation("Only an email address or phone number should be provided", 400);
    if (rawEmail && str(b.channel)) throw authErrors.validation("Channel should only be specified with Phone OTP", 400);
    const pkce = this.readPkce(b);
    const createUser = b.create_user !== false;
    if (phone) throw authErrors.phoneProviderDisabled();
    if (!rawEmail) throw authErrors.validation("One of email or phone must be set", 400);
    const email = validateEmail(rawEmail);
    this.allowEmail(r, email, createUser ? ["account", "signup"] : ["account"]);
    const existing = await findUserByEmail(this.db, email);
    if (!existing && !createUser) throw authErrors.otpDisabled();
    const data = obj(b.data) ?? {};
    const redirectTo = this.redirectTo(r);
    try {
      await this.db.transaction(async (tx) => {
        if (!existing || !existing.email_confirmed_at) {
          const user =
            existing ??
            (await insertUser(tx, {
              email,
              passwordHash: await bcrypt.hash(randomPassword(), this.options.passwordHashCost),
              confirmed: !this.options.mailConfirmation,
              userMetadata: data,
              signup: true,
            }));
          if (this.options.mailConfirmation) {
            await this.sendConfirmation(tx, user, redirectTo);
            if (pkce) this.pendingPkce.set(user.id, pkce);
            return;
          }
          await this.sendMagicLink(tx, user, redirectTo);
        } else {
          await this.sendMagicLink(tx, existing, redirectTo);
        }
        if (pkce) this.pendingPkce.set((existing ?? (await findUserByEmail(tx, email)))!.id, pkce);
      });
    } catch (e) {
      if (e instanceof AuthError) throw e;
      throw userWriteError(e);
    }
    return ok({});
  }

  /**
   * GoTrue's sendMagicLink: a recovery-token link and code, verified as type magiclink (or email). The
   * caller has counted the e-mail allowance.
   */
  private async sendMagicLink(tx: Db, user: UserRow, redirectTo: string | undefined): Promise<void> {
    const { otp, tokenHash } = this.newCode(user.email!);
    await tx.query("update auth.users set recovery_token = $2, recovery_sent_at = now() where id = $1", [
      user.id,
      tokenHash,
    ]);
    await this.queue(tx, { to: user.email!, kind: "magiclink", otp, redirectTo });
  }

  /**
   * GoTrue's GET /reauthenticate: a six-digit nonce e-mailed to the signed-in user (sha224(address +
   * nonce) kept in reauthentication_token, as GoTrue keeps it), so that a password alone cannot change how
   * an account is protected: the site has the nonce checked before such a change.
   */
  private async reauthenticate(r: AuthRequest): Promise<Reply> {
    const noAddress = () =>
      authErrors.validation("Reauthentication requires the user to have an email or a phone number", 400);
    // Signed out, supabase-js sends the API key as the bearer; GoTrue finds no user and so no address.
    const token = bearer(r.req);
    if (token && keyRole(token)) throw noAddress();
    const { user } = await this.requireUser(r.req);
    if (!user.email) throw noAddress();
    if (!user.email_confirmed_at) throw authErrors.emailNotVerified();
    await this.db.transaction(async (tx) => {
      const { otp, tokenHash } = this.newCode(user.email!);
      await tx.query(
        "update auth.users set reauthentication_token = $2, reauthentication_sent_at = now() where id = $1",
        [user.id, tokenHash],
      );
      await this.mail(r, tx, { to: user.email!, kind: "reauthentication", otp });
    });
    return ok({});
  }

  /**
   * GoTrue's POST /verify parameters: a type, and either a token_hash (a link) alone or a six-digit
   * code with the address it was sent to (matched through sha224(address + code)).
   */
  private verifyParams(source: Record<string, unknown>): VerifyParams {
    const type = str(source.type);
    if (!type) throw authErrors.validation("Verify requires a verification type");
    const hashParam = str(source.token_hash);
    const token = str(source.token);
    const email = str(source.email);
    const phone = str(source.phone);
    if ((!token && !hashParam) || (token && hashParam))
      throw authErrors.validation("Verify requires either a token or a token hash");
    if (token) {
      if (phone && !email) throw authErrors.phoneDisabled("logins");
      if (!email || phone)
        throw authErrors.validation("Only an email address or phone number should be provided on verify");
      let address: string;
      try {
        address = validateEmail(email);
      } catch {
        throw new AuthError(422, "validation_failed", "Invalid email format");
      }
      return { type, hash: tokenHash(address, token), email: address };
    }
    if (email || phone || source.redirect_to !== undefined)
      throw authErrors.validation("Only the token_hash and type should be provided");
    return { type, hash: hashParam! };
  }

  /**
   * Finds the user a link or code belongs to, as GoTrue's verifyTokenHash (a link) and
   * verifyUserAndToken (a code with its address) do, and the verification it turns out to be: type
   * `email` is a sign-up confirmation or, for a recovery token, a magic link. Unknown, spent and
   * expired tokens (OTP_SECONDS) are 403 otp_expired, worded as GoTrue words each path.
   */
  private async findVerification(tx: Db, p: VerifyParams): Promise<{ user: UserRow; type: VerifyType }> {
    const columns: Record<VerifyType, TokenColumn[]> = {
      email: ["confirmation_token", "recovery_token"],
      signup: ["confirmation_token"],
      invite: ["confirmation_token"],
      recovery: ["recovery_token"],
      magiclink: ["recovery_token"],
      email_change: ["email_change_token_current", "email_change_token_new"],
    };
    const notFound = p.email ? authErrors.otpExpired() : authErrors.emailLinkExpired();
    if (!VERIFY_TYPES.has(p.type)) {
      if (!p.email) throw authErrors.validation("Invalid email verification type");
      throw notFound;
    }
    const type = p.type as VerifyType;
    let user: UserRow | undefined;
    if (!p.email) {
      const { rows } = await tx.query<UserRow>(
        `select * from auth.users where deleted_at is null and (${columns[type].map((c) => `${c} = $1`).join(" or ")})`,
        [p.hash],
      );
      user = rows[0];
    } else if (type === "email_change") {
      // GoTrue's FindUserForEmailChange: the current address with its token, or the new one with its own.
      const { rows } = await tx.query<UserRow>(
        `select * from auth.users where deleted_at is null
            and ((lower(email) = $1 and email_change_token_current = $2) or (lower(email_change) = $1 and email_change_token_new = $2))
          order by (lower(email) = $1) desc limit 1`,
        [p.email, p.hash],
      );
      user = rows[0];
    } else {
      user = await findUserByEmail(tx, p.email);
    }
    if (!user) throw notFound;
    if (isBanned(user)) throw authErrors.userBannedVerify();
    const sentAt: Record<TokenColumn, Date | null> = {
      confirmation_token: user.confirmation_sent_at,
      recovery_token: user.recovery_sent_at,
      email_change_token_current: user.email_change_sent_at,
      email_change_token_new: user.email_change_sent_at,
    };
    const fresh = (c: TokenColumn) =>
      user[c] === p.hash &&
      !!sentAt[c] &&
      Date.now() - new Date(sentAt[c]!).getTime() <= this.options.emailOtp.expirySeconds * 1000;
    const matched = columns[type].find(fresh);
    if (!matched) throw notFound;
    if (type === "email") return { user, type: matched === "recovery_token" ? "magiclink" : "signup" };
    return { user, type };
  }

  /**
   * Applies a verified link or code as GoTrue's signupVerify, recoverVerify and emailChangeVerify do.
   * Null means the first half of a secure e-mail change: nothing to sign in to yet.
   */
  private async applyVerification(tx: Db, user: UserRow, type: VerifyType, hash: string): Promise<UserRow | null> {
    if (type === "email_change") return this.verifyEmailChange(tx, user, hash);
    if (type === "recovery" || type === "magiclink") {
      await tx.query("update auth.users set recovery_token = null, updated_at = now() where id = $1", [user.id]);
      return user.email_confirmed_at ? (await findUserById(tx, user.id))! : confirmUser(tx, user.id);
    }
    if (!user.encrypted_password && user.invited_at) {
      // An invited user has no password yet: GoTrue gives them a random one (the app then asks them
      // to choose theirs), which, as any new password, ends their sessions.
      const random = await bcrypt.hash(randomBytes(32).toString("base64url"), this.options.passwordHashCost);
      await tx.query("update auth.users set encrypted_password = $2 where id = $1", [user.id, random]);
      await tx.query("delete from auth.sessions where user_id = $1", [user.id]);
    }
    const confirmed = await confirmUser(tx, user.id);
    await markIdentityEmailVerified(tx, confirmed);
    return confirmed;
  }

  /**
   * How a session begun from a PKCE link is recorded in its amr: GoTrue's ParseAuthenticationMethod of
   * the link's type. A code or token hash posted to /verify, and an implicit-flow link, record "otp".
   */
  private static pkceAmrFor(type: VerifyType): AmrMethod {
    // findVerification has already turned "email" into the signup or magic link it was.
    if (type === "signup" || type === "email") return "email/signup";
    return type;
  }

  private async verifyPost(r: AuthRequest): Promise<Reply> {
    const params = this.verifyParams(r.body);
    const { email } = params;
    // A void address refuses every code, right or not, as an expired one (its tokens are already cleared;
    // this also holds against a right guess racing the clearing).
    if (email && this.codeGuard.isVoid(email)) throw authErrors.otpExpired();
    let session: SessionBody | null;
    try {
      session = await this.db.transaction(async (tx) => {
        const { user, type } = await this.findVerification(tx, params);
        const verified = await this.applyVerification(tx, user, type, params.hash);
        if (!verified) return null;
        return this.sessions.start(tx, verified, "otp");
      });
    } catch (e) {
      if (email && e instanceof AuthError && e.code === "otp_expired") await this.wrongCode(email);
      throw e;
    }
    if (email) this.codeGuard.reset(email);
    // GoTrue's answer to the first half of a secure e-mail change: a 200 with a message, no session.
    if (!session) return ok({ msg: SINGLE_CONFIRMATION_ACCEPTED, code: "200" });
    this.pendingPkce.delete(String(session.user.id));
    return ok(session);
  }

  /**
   * The link form GoTrue puts in its default templates (/auth/v1/verify?token=…&type=…&redirect_to=…).
   * Redirects to redirect_to with ?code=… when the flow began with a PKCE
   * challenge, else with the session in the URL fragment (implicit flow).
   */
  private async verifyRedirect(r: AuthRequest): Promise<Reply> {
    const q = r.url.searchParams;
    const type = q.get("type");
    const token = q.get("token");
    if (!type) throw authErrors.validation("Verify requires a verification type");
    if (!token) throw authErrors.validation("Verify requires a token or a token hash");
    const target = new URL(
      allowedRedirect(q.get("redirect_to"), this.options.redirects) ?? this.options.redirects.siteUrl,
    );
    const params: VerifyParams = { type, hash: token };
    let found: { user: UserRow; type: VerifyType; pkce?: PkceChallenge; session?: SessionBody } | null;
    try {
      found = await this.db.transaction(async (tx) => {
        const { user, type: verified } = await this.findVerification(tx, params);
        const applied = await this.applyVerification(tx, user, verified, params.hash);
        if (!applied) return null;
        const pkce = this.pendingPkce.get(applied.id);
        if (pkce) return { user: applied, type: verified, pkce };
        return {
          user: applied,
          type: verified,
          session: await this.sessions.start(tx, applied, "otp"),
        };
      });
    } catch (e) {
      if (e instanceof AuthError) return redirectWithError(target, e);
      throw e;
    }
    if (!found) {
      // GoTrue's prepRedirectURL: the message in the fragment (and the query, in a PKCE flow).
      target.hash = new URLSearchParams({ message: SINGLE_CONFIRMATION_ACCEPTED }).toString();
      return redirect(target);
    }
    if (found.pkce) {
      this.pendingPkce.delete(found.user.id);
      const code = randomUUID();
      this.authCodes.set(code, {
        ...found.pkce,
        userId: found.user.id,
        amr: AuthService.pkceAmrFor(found.type),
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
      // GoTrue reports what the link turned out to be (type email becomes signup or magiclink).
      type: found.type,
    }).toString();
    return redirect(target);
  }

  // ---------------------------------------------------------------- admin

  private async listUsers(r: AuthRequest): Promise<Reply> {
    this.requireAdmin(r.req);
    const { page, perPage } = paginate(r.url.searchParams);
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
    return {
      status: 200,
      body: { users, aud: "authenticated" },
      headers: {
        "X-Total-Count": String(total),
        Link: paginationLinks(r.path, r.url.searchParams, page, perPage, total),
      },
    };
  }

  /** GoTrue's adminUserCreate. */
  private async createUser(r: AuthRequest): Promise<Reply> {
    this.requireAdmin(r.req);
    const b = r.body;
    const rawEmail = str(b.email);
    const password = str(b.password);
    const passwordHashParam = str(b.password_hash);
    if (!rawEmail) {
      if (str(b.phone)) throw authErrors.phoneDisabled("logins");
      throw authErrors.validation("Cannot create a user without either an email or phone");
    }
    const email = validateEmail(rawEmail);
    if (await findUserByEmail(this.db, email)) throw authErrors.emailExists();
    if (password !== undefined && passwordHashParam)
      throw authErrors.validation("Only a password or a password hash should be provided");
    // LabCash keeps its password policy here too (GoTrue checks strength only on update).
    if (password) checkPasswordStrength(password, this.options.passwordPolicy);
    const id = str(b.id);
    if (id !== undefined && !UUID_RE.test(id)) throw authErrors.validation("ID must conform to the uuid v4 format");
    if (id !== undefined && /^[0-]+$/.test(id)) throw authErrors.validation("ID cannot be a nil uuid");
    const bannedUntil = str(b.ban_duration) ? parseBanDuration(str(b.ban_duration)!) : null;
    let passwordHash: string;
    if (passwordHashParam) {
      if (!/^\$2[aby]?\$\d\d\$[./A-Za-z0-9]{53}$/.test(passwordHashParam))
        throw authErrors.unexpected("Error creating user");
      passwordHash = passwordHashParam;
    } else {
      // Without a password GoTrue gives the user a random one: only a recovery link opens the account.
      passwordHash = await bcrypt.hash(password || randomPassword(), this.options.passwordHashCost);
    }
    try {
      const user = await this.db.transaction(async (tx) => {
        // user_metadata is stored as sent (`data` is not an admin field); email_confirm adds
        // email_verified: true, as GoTrue's User.Confirm does.
        const created = await insertUser(tx, {
          id,
          email,
          passwordHash,
          confirmed: b.email_confirm === true,
          userMetadata: obj(b.user_metadata) ?? {},
          appMetadata: obj(b.app_metadata),
          role: str(b.role) || undefined,
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

  /** GoTrue's adminUserUpdate. */
  private async adminUpdateUser(user: UserRow, b: Record<string, unknown>): Promise<Reply> {
    const rawEmail = str(b.email);
    const email = rawEmail ? validateEmail(rawEmail) : undefined;
    const password = str(b.password);
    if (password !== undefined) checkPasswordStrength(password, this.options.passwordPolicy);
    if (email !== undefined && email !== user.email && (await findUserByEmail(this.db, email)))
      throw authErrors.emailExists();
    const passwordHash = password ? await bcrypt.hash(password, this.options.passwordHashCost) : undefined;
    const banDuration = str(b.ban_duration);
    const bannedUntil = banDuration ? parseBanDuration(banDuration) : undefined;
    try {
      const updated = await this.db.transaction(async (tx) => {
        if (str(b.role)) await tx.query("update auth.users set role = $2 where id = $1", [user.id, str(b.role)]);
        if (b.email_confirm === true) await confirmUser(tx, user.id);
        if (passwordHash) {
          await tx.query("update auth.users set encrypted_password = $2 where id = $1", [user.id, passwordHash]);
          // GoTrue's UpdatePassword without a session: every session of the user ends.
          await tx.query("delete from auth.sessions where user_id = $1", [user.id]);
        }
        if (email !== undefined) {
          // The e-mail identity takes the address, verified only if this call confirms it.
          await tx.query(
            `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text, 'email_verified', $3::boolean),
                    updated_at = now()
              where user_id = $1 and provider = 'email'`,
            [user.id, email, b.email_confirm === true],
          );
          await tx.query("update auth.users set email = $2 where id = $1", [user.id, email]);
        }
        const appMeta = obj(b.app_metadata);
        if (appMeta) {
          await tx.query("update auth.users set raw_app_meta_data = $2 where id = $1", [
            user.id,
            mergeMetadata(user.raw_app_meta_data, appMeta),
          ]);
        }
        const userMeta = obj(b.user_metadata);
        if (userMeta) {
          const current = (await findUserById(tx, user.id))!.raw_user_meta_data;
          await tx.query("update auth.users set raw_user_meta_data = $2 where id = $1", [
            user.id,
            mergeMetadata(current, userMeta),
          ]);
        }
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

  /**
   * GoTrue's POST /invite (secret key): a new user with no password, invited_at set and the
   * request's `data` as user_metadata, and an invitation mail whose link or code (type invite)
   * confirms the address and signs them in. An unconfirmed existing user is invited again; a
   * confirmed one is 422 email_exists.
   */
  private async invite(r: AuthRequest): Promise<Reply> {
    this.requireAdmin(r.req);
    const email = validateEmail(str(r.body.email));
    const data = obj(r.body.data) ?? {};
    const redirectTo = this.redirectTo(r);
    try {
      const user = await this.db.transaction(async (tx) => {
        let invited = await findUserByEmail(tx, email);
        if (invited?.email_confirmed_at) throw authErrors.emailExists();
        invited ??= await insertUser(tx, { email, passwordHash: null, confirmed: false, userMetadata: data });
        const { otp, tokenHash } = this.newCode(email);
        const { rows } = await tx.query<UserRow>(
          `update auth.users set confirmation_token = $2, confirmation_sent_at = now(), invited_at = now(), updated_at = now()
            where id = $1 returning *`,
          [invited.id, tokenHash],
        );
        await this.mail(r, tx, { to: email, kind: "invite", otp, redirectTo }, "signup");
        return userJson(tx, rows[0]);
      });
      return ok(user);
    } catch (e) {
      if (e instanceof AuthError) throw e;
      throw userWriteError(e);
    }
  }

  /**
   * GoTrue's POST /admin/generate_link (secret key): makes the link and code a mail would carry and
   * answers them with the user instead of sending anything. `signup` (with a password) and `invite`
   * create the user when the address is new, and `magiclink` for a new address becomes a `signup`
   * with a random password; `recovery` and the two e-mail change types need an existing user.
   */
  private async generateLink(r: AuthRequest): Promise<Reply> {
    this.requireAdmin(r.req);
    const b = r.body;
    let type = str(b.type) ?? "";
    const email = validateEmail(str(b.email));
    const data = obj(b.data);
    const redirectTo =
      allowedRedirect(str(b.redirect_to), this.options.redirects) ??
      this.redirectTo(r) ??
      this.options.redirects.siteUrl;
    let existing = await findUserByEmail(this.db, email);
    let password = str(b.password) ?? "";
    if (!existing) {
      if (type === "magiclink") {
        type = "signup";
        password = randomPassword();
      } else if (["recovery", "email_change_current", "email_change_new"].includes(type)) {
        throw new AuthError(404, "user_not_found", "User with this email not found");
      }
    }
    const { otp, tokenHash: hashedToken } = this.newCode(email);
    // No mail goes, but the link's new code replaces the outstanding one: it starts with a full allowance.
    this.codeGuard.reset(normalizeEmail(email));
    let passwordHash: string | null = null;
    if (type === "signup" && !existing) {
      if (!password) throw authErrors.validation("Signup requires a valid password");
      checkPasswordStrength(password, this.options.passwordPolicy);
      passwordHash = await bcrypt.hash(password, this.options.passwordHashCost);
    }
    try {
      const user = await this.db.transaction(async (tx) => {
        let tokenForLink = hashedToken;
        switch (type) {
          case "magiclink":
          case "recovery":
            await tx.query("update auth.users set recovery_token = $2, recovery_sent_at = now() where id = $1", [
              existing!.id,
              hashedToken,
            ]);
            break;
          case "invite":
          case "signup": {
            if (existing?.email_confirmed_at) throw authErrors.emailExists();
            if (existing && type === "signup" && data) {
              await tx.query("update auth.users set raw_user_meta_data = $2 where id = $1", [
                existing.id,
                mergeMetadata(existing.raw_user_meta_data, data),
              ]);
            }
            existing ??= await insertUser(tx, {
              email,
              passwordHash,
              confirmed: false,
              userMetadata: data ?? {},
            });
            await tx.query(
              `update auth.users set confirmation_token = $2, confirmation_sent_at = now(),
                      invited_at = case when $3 then now() else invited_at end
                where id = $1`,
              [existing.id, hashedToken, type === "invite"],
            );
            break;
          }
          case "email_change_current":
          case "email_change_new": {
            const newEmail = validateEmail(str(b.new_email));
            if (newEmail !== existing!.email && (await findUserByEmail(tx, newEmail))) throw authErrors.emailExists();
            // As GoTrue: only the token of the link asked for is written; the other keeps its value.
            const column = type === "email_change_current" ? "email_change_token_current" : "email_change_token_new";
            if (type === "email_change_new") tokenForLink = tokenHash(newEmail, otp);
            await tx.query(
              `update auth.users set email_change = $2, ${column} = $3, email_change_sent_at = now(),
                      email_change_confirm_status = 0
                where id = $1`,
              [existing!.id, newEmail, tokenForLink],
            );
            break;
          }
          default:
            throw authErrors.validation(`Invalid email action link type requested: ${type}`);
        }
        const linkType = type === "email_change_current" || type === "email_change_new" ? "email_change" : type;
        return {
          ...(await userJson(tx, (await findUserById(tx, existing!.id))!)),
          action_link: actionLink(this.options.issuer, tokenForLink, linkType, redirectTo),
          email_otp: otp,
          // GoTrue answers sha224(email + otp) for every type, also email_change_new, whose link
          // carries the new address's hash instead.
          hashed_token: hashedToken,
          verification_type: type,
          redirect_to: redirectTo,
        };
      });
      return ok(user);
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
                  email_change_token_current = null,
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
