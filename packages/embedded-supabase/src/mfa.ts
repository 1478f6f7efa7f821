// GoTrue's second factors (internal/api/mfa.go), TOTP only: enrol a factor, ask for a challenge,
// verify a code against it (which raises the session to aal2), unenrol; and the admin API's factor
// listing and removal. Phone and WebAuthn factors are refused as a project with them disabled is.
// A configured MFA verification attempt hook is called after each code is checked, as GoTrue calls it.
import { randomUUID } from "node:crypto";
import type { PGlite } from "@electric-sql/pglite";
import { renderSVG } from "uqr";
import { AuthError, authErrors } from "./auth-errors";
import {
  factorJson,
  factorsOf,
  findUserById,
  UUID_RE,
  type Db,
  type FactorRow,
  type SessionIssuer,
  type UserRow,
} from "./auth-store";
import type { Reply } from "./http";
import type { RateLimiter } from "./rate-limit";
import { newTotpSecret, otpauthUri, totpMatches } from "./totp";

/** GoTrue's MFA defaults: challenges live five minutes, unverified factors too; ten factors at most. */
const CHALLENGE_SECONDS = 300;
const UNVERIFIED_FACTOR_SECONDS = 300;
const MAX_FACTORS = 10;

/** What an MFA verification attempt hook answers: a decision, or an error GoTrue passes on. */
interface HookOutput {
  decision?: string;
  message?: string;
  error?: { http_code?: number; message?: string };
}

/**
 * A Postgres function hook as GoTrue's configuration names it (`pg-functions://<database>/<schema>/<function>`),
 * as the quoted name to call.
 */
export function hookFunction(uri: string): string {
  const match = /^pg-functions:\/\/[^/]+\/([a-z_][a-z0-9_]*)\/([a-z_][a-z0-9_]*)$/.exec(uri);
  if (!match) throw new Error(`An auth hook must be pg-functions://<database>/<schema>/<function>, not ${uri}`);
  return `"${match[1]}"."${match[2]}"`;
}

/** Who is asking: the signed-in user and the session their access token belongs to. */
export interface FactorCaller {
  user: UserRow;
  sessionId: string;
  /** The client address, which must be the same for a challenge and its verification. */
  ip: string;
}

function ok(body: unknown): Reply {
  return { status: 200, body };
}

export class SecondFactors {
  constructor(
    private readonly db: PGlite,
    private readonly sessions: SessionIssuer,
    /** TOTP issuer when the client names none: the site URL's host, as GoTrue's. */
    private readonly defaultIssuer: () => string,
    /** Wrong codes per challenge, and per visitor on a factor (rate-limit.ts). */
    private readonly limiter: RateLimiter,
    /** The MFA verification attempt hook (GoTrue's hook.mfa_verification_attempt.uri), if any. */
    private readonly verificationHook?: string,
  ) {}

  /** Routes under /factors; undefined when the path is not one of them. */
  async handle(method: string, path: string, body: Record<string, unknown>, caller: () => Promise<FactorCaller>) {
    if (path === "/factors" && method === "POST") return this.enroll(await caller(), body);
    const match = path.match(/^\/factors\/([^/]+)(\/challenge|\/verify)?$/);
    if (!match) return undefined;
    const [, rawId, action] = match;
    const who = await caller();
    const factor = await this.ownFactor(who.user, rawId);
    if (action === "/challenge" && method === "POST") return this.challenge(who, factor);
    if (action === "/verify" && method === "POST") return this.verify(who, factor, body);
    if (!action && method === "DELETE") return this.unenroll(who, factor);
    return undefined;
  }

  /** GET/DELETE /admin/users/{id}/factors[/{factor}], for the secret key only (checked by the caller). */
  async admin(method: string, user: UserRow, factorId: string | undefined): Promise<Reply | undefined> {
    if (!factorId && method === "GET") return ok((await factorsOf(this.db, user.id)).map(factorJson));
    if (factorId && method === "DELETE") {
      const factor = await this.ownFactor(user, factorId);
      await this.db.transaction(async (tx) => {
        await tx.query("delete from auth.mfa_factors where id = $1", [factor.id]);
        await downgradeSessions(tx, factor.id);
      });
      return ok(factorJson(factor));
    }
    return undefined;
  }

  private async ownFactor(user: UserRow, rawId: string): Promise<FactorRow> {
    let id: string;
    try {
      id = decodeURIComponent(rawId);
    } catch {
      throw authErrors.badFactorId();
    }
    if (!UUID_RE.test(id)) throw authErrors.badFactorId();
    const { rows } = await this.db.query<FactorRow>("select * from auth.mfa_factors where id = $1 and user_id = $2", [
      id,
      user.id,
    ]);
    if (!rows[0]) throw authErrors.factorNotFound();
    return rows[0];
  }

  private async enroll(caller: FactorCaller, body: Record<string, unknown>): Promise<Reply> {
    const type = body.factor_type;
    if (type === "phone") throw new AuthError(422, "mfa_phone_enroll_not_enabled", "MFA enroll is disabled for Phone");
    if (type === "webauthn")
      throw new AuthError(422, "mfa_web_authn_enroll_not_enabled", "MFA enroll is disabled for WebAuthn");
    if (type !== "totp") throw authErrors.validation("factor_type needs to be totp, phone, or webauthn");
    const friendlyName = typeof body.friendly_name === "string" ? body.friendly_name : "";
    const issuer = typeof body.issuer === "string" && body.issuer ? body.issuer : this.defaultIssuer();

    return this.db.transaction(async (tx) => {
      await tx.query(
        `delete from auth.mfa_factors
          where status = 'unverified' and created_at < now() - make_interval(secs => $1)`,
        [UNVERIFIED_FACTOR_SECONDS],
      );
      const factors = await factorsOf(tx, caller.user.id);
      if (factors.some((f) => (f.friendly_name ?? "") === friendlyName))
        throw authErrors.factorNameConflict(friendlyName);
      if (factors.length >= MAX_FACTORS) throw authErrors.tooManyFactors();
      if (factors.some((f) => f.status === "verified") && (await sessionAal(tx, caller.sessionId)) !== "aal2")
        throw authErrors.insufficientAal("AAL2 required to enroll a new factor");

      const secret = newTotpSecret();
      const uri = otpauthUri(issuer, caller.user.email ?? "", secret);
      const { rows } = await tx.query<FactorRow>(
        `insert into auth.mfa_factors (user_id, friendly_name, factor_type, status, secret)
         values ($1, $2, 'totp', 'unverified', $3) returning *`,
        [caller.user.id, friendlyName, secret],
      );
      return ok({
        id: rows[0].id,
        type: "totp",
        friendly_name: friendlyName,
        totp: { qr_code: renderSVG(uri, { ecc: "H" }), secret, uri },
      });
    });
  }

  private async challenge(caller: FactorCaller, factor: FactorRow): Promise<Reply> {
    const { rows } = await this.db.query<{ id: string; created_at: Date }>(
      "insert into auth.mfa_challenges (factor_id, ip_address) values ($1, $2) returning id, created_at",
      [factor.id, caller.ip],
    );
    await this.db.query("update auth.mfa_factors set last_challenged_at = now() where id = $1", [factor.id]);
    const expiresAt = Math.floor(new Date(rows[0].created_at).getTime() / 1000) + CHALLENGE_SECONDS;
    return ok({ id: rows[0].id, type: factor.factor_type, expires_at: expiresAt });
  }

  private async verify(caller: FactorCaller, factor: FactorRow, body: Record<string, unknown>): Promise<Reply> {
    const code = typeof body.code === "string" ? body.code : "";
    if (!code) throw authErrors.validation("Code needs to be non-empty");
    const challengeId = typeof body.challenge_id === "string" ? body.challenge_id : "";
    if (!UUID_RE.test(challengeId)) throw authErrors.validation("challenge_id must be an UUID");

    const { rows } = await this.db.query<{
      id: string;
      created_at: Date;
      verified_at: Date | null;
      ip_address: string;
    }>("select id, created_at, verified_at, ip_address from auth.mfa_challenges where id = $1 and factor_id = $2", [
      challengeId,
      factor.id,
    ]);
    const challenge = rows[0];
    if (!challenge) throw authErrors.challengeNotFound();
    if (challenge.verified_at || challenge.ip_address !== caller.ip) throw authErrors.challengeAddressMismatch();
    if (Date.now() - new Date(challenge.created_at).getTime() > CHALLENGE_SECONDS * 1000) {
      await this.db.query("delete from auth.mfa_challenges where id = $1", [challenge.id]);
      throw authErrors.challengeExpired(challenge.id);
    }
    // Only the visitor who typed the wrong codes waits: the owner's right code from elsewhere still counts.
    const coolDown = this.limiter.factorCoolDown(factor.id, caller.ip);
    if (coolDown > 0) throw authErrors.tooManyWrongCodes(coolDown);
    const valid = factor.secret ? totpMatches(factor.secret, code) : false;
    await this.askHook(caller, factor, valid);
    if (!valid) {
      // A challenge takes a few wrong codes, then is void: guessing needs a new challenge each time, and
      // a run of wrong codes cools this visitor down on the factor.
      if (this.limiter.recordWrongCode(factor.id, caller.ip, challenge.id))
        await this.db.query("delete from auth.mfa_challenges where id = $1", [challenge.id]);
      throw authErrors.invalidTotp();
    }
    this.limiter.recordRightCode(factor.id, caller.ip, challenge.id);

    const session = await this.db.transaction(async (tx) => {
      await tx.query("update auth.mfa_challenges set verified_at = now() where id = $1", [challenge.id]);
      await tx.query(
        "update auth.mfa_factors set status = 'verified', updated_at = now() where id = $1 and status = 'unverified'",
        [factor.id],
      );
      const user = (await findUserById(tx, caller.user.id)) ?? caller.user;
      const body = await this.sessions.raiseToAal2(tx, user, caller.sessionId, factor.id);
      // GoTrue then ends the user's weaker sessions and drops their other unfinished enrolments.
      await tx.query("delete from auth.sessions where user_id = $1 and coalesce(aal, 'aal1') = 'aal1'", [user.id]);
      await tx.query("delete from auth.mfa_factors where user_id = $1 and status = 'unverified' and factor_type = $2", [
        user.id,
        factor.factor_type,
      ]);
      return body;
    });
    return ok(session);
  }

  /**
   * GoTrue's MFA verification attempt hook: the configured function is given the attempt (who, which factor,
   * whether the code was right, and the client address in its metadata) in a transaction of its own, as the
   * auth server's role; `reject` signs the user out everywhere and refuses the code with the hook's message.
   */
  private async askHook(caller: FactorCaller, factor: FactorRow, valid: boolean): Promise<void> {
    if (!this.verificationHook) return;
    const event = {
      metadata: { uuid: randomUUID(), time: new Date().toISOString(), name: "mfa-verification", ip_address: caller.ip },
      user_id: caller.user.id,
      factor_id: factor.id,
      factor_type: factor.factor_type,
      valid,
    };
    const fn = this.verificationHook;
    const output = await this.db.transaction(async (tx) => {
      await tx.query("set local role supabase_auth_admin");
      const { rows } = await tx.query<{ output: HookOutput | null }>(`select ${fn}($1::jsonb) as output`, [event]);
      return rows[0]?.output ?? {};
    });
    if (output.error)
      throw new AuthError(output.error.http_code ?? 500, "unexpected_failure", output.error.message ?? "");
    if (output.decision !== "reject") return;
    await this.db.query("delete from auth.sessions where user_id = $1", [caller.user.id]);
    throw authErrors.verificationRejected(output.message || "Further MFA verification attempts will be rejected.");
  }

  private async unenroll(caller: FactorCaller, factor: FactorRow): Promise<Reply> {
    if (factor.status === "verified" && (await sessionAal(this.db, caller.sessionId)) !== "aal2")
      throw authErrors.insufficientAal("AAL2 required to unenroll verified factor", 422);
    await this.db.transaction(async (tx) => {
      await tx.query("delete from auth.mfa_factors where id = $1", [factor.id]);
      await downgradeSessions(tx, factor.id);
    });
    return ok({ id: factor.id });
  }
}

async function sessionAal(db: Db, sessionId: string): Promise<string> {
  const { rows } = await db.query<{ aal: string | null }>("select aal from auth.sessions where id = $1", [sessionId]);
  return rows[0]?.aal ?? "aal1";
}

/** Sessions the removed factor raised go back to aal1 and lose its amr entry (GoTrue's DowngradeSessionsToAAL1). */
async function downgradeSessions(db: Db, factorId: string): Promise<void> {
  await db.query(
    `delete from auth.mfa_amr_claims
      where authentication_method = 'totp' and session_id in (select id from auth.sessions where factor_id = $1)`,
    [factorId],
  );
  await db.query("update auth.sessions set aal = 'aal1', factor_id = null, updated_at = now() where factor_id = $1", [
    factorId,
  ]);
}
