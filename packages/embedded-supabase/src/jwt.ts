// The access-token signing key. Like a Supabase project with asymmetric JWT keys:
// one ES256 key pair with a kid, the public half served at
// /auth/v1/.well-known/jwks.json so supabase-js `getClaims()` verifies tokens
// locally. With a data directory the pair is kept in <dataDir>/jwk.json, so
// sessions outlive a restart; in memory a fresh pair is made per process.
import { randomUUID } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { errors, exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, type JWK, type JWTPayload } from "jose";

type Key = Awaited<ReturnType<typeof importJWK>>;

export type Claims = JWTPayload & Record<string, unknown>;

export class TokenError extends Error {
  constructor(
    readonly kind: "expired" | "invalid",
    message: string,
  ) {
    super(message);
  }
}

interface StoredPair {
  kid: string;
  privateJwk: JWK;
}

export class TokenSigner {
  private constructor(
    readonly kid: string,
    private readonly privateKey: Key,
    private readonly publicKey: Key,
    private readonly publicJwk: JWK,
  ) {}

  static async load(dataDir?: string): Promise<TokenSigner> {
    const file = dataDir ? path.join(dataDir, "jwk.json") : undefined;
    let stored: StoredPair | undefined;
    if (file) {
      try {
        stored = JSON.parse(await readFile(file, "utf8")) as StoredPair;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
      }
    }
    if (!stored) {
      const { privateKey } = await generateKeyPair("ES256", { extractable: true });
      stored = { kid: randomUUID(), privateJwk: await exportJWK(privateKey) };
      if (file) {
        await mkdir(path.dirname(file), { recursive: true });
        // Write-then-rename: a kill mid-write must not leave a half key behind.
        await writeFile(`${file}.tmp`, JSON.stringify(stored), { mode: 0o600 });
        await rename(`${file}.tmp`, file);
      }
    }
    const publicJwk: JWK = { ...stored.privateJwk };
    delete publicJwk.d;
    const jwk: JWK = { ...publicJwk, kid: stored.kid, alg: "ES256", use: "sig", key_ops: ["verify"] };
    return new TokenSigner(
      stored.kid,
      await importJWK({ ...stored.privateJwk, alg: "ES256" }, "ES256"),
      await importJWK({ ...publicJwk, alg: "ES256" }, "ES256"),
      jwk,
    );
  }

  jwks(): { keys: JWK[] } {
    return { keys: [this.publicJwk] };
  }

  async sign(claims: Claims): Promise<string> {
    return new SignJWT(claims).setProtectedHeader({ alg: "ES256", kid: this.kid, typ: "JWT" }).sign(this.privateKey);
  }

  /**
   * Who the tokens are from (`<url>/auth/v1`), set once the server knows its port. Tokens from any
   * other issuer (another backend that happened to share the key) are refused.
   */
  issuer: string | undefined;

  /** Verifies signature, algorithm, expiry, issuer and audience; throws TokenError saying which failed. */
  async verify(token: string): Promise<Claims> {
    try {
      const { payload } = await jwtVerify(token, this.publicKey, { algorithms: ["ES256"], requiredClaims: ["exp"] });
      // After the expiry check, so an expired token still reads as expired (PGRST303), as GoTrue and
      // PostgREST report it.
      if (this.issuer && payload.iss !== this.issuer) throw new TokenError("invalid", "token has an unexpected issuer");
      const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
      if (!audiences.includes("authenticated")) throw new TokenError("invalid", "token has an unexpected audience");
      return payload as Claims;
    } catch (e) {
      if (e instanceof TokenError) throw e;
      if (e instanceof errors.JWTExpired) throw new TokenError("expired", "token is expired");
      throw new TokenError("invalid", e instanceof Error ? e.message : "invalid token");
    }
  }
}

/** A bearer value that has the three dot-separated parts of a JWS (keys do not). */
export function looksLikeJwt(value: string): boolean {
  return value.split(".").length === 3;
}
