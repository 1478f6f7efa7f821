// Storage's signed URLs: a token names one object (`<bucket>/<name>`), what it allows (download, or an upload
// with its owner and whether it may replace), and when it expires, HMAC-signed with a key of the backend's own,
// as hosted Storage signs them with the project's URL-signing key. Nobody but the backend holds the key: with a
// data directory it is kept in <dataDir>/storage-url-key (so links outlive a restart), in memory otherwise.
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { errors, jwtVerify, SignJWT } from "jose";
import { StorageHttpError } from "./storage-errors";

export type SignedScope = "download" | "upload";

export interface SignedClaims {
  url: string;
  scope: SignedScope;
  /** Upload tokens only: who will own the object, and whether it may replace one. */
  owner?: string | null;
  upsert?: boolean;
}

async function loadKey(dataDir: string | undefined): Promise<Uint8Array> {
  if (!dataDir) return randomBytes(32);
  const file = path.join(dataDir, "storage-url-key");
  try {
    return Buffer.from((await readFile(file, "utf8")).trim(), "base64url");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  const key = randomBytes(32);
  await mkdir(dataDir, { recursive: true });
  await writeFile(`${file}.tmp`, key.toString("base64url"), { mode: 0o600 });
  await rename(`${file}.tmp`, file);
  return key;
}

export class UrlSigner {
  private constructor(private readonly key: Uint8Array) {}

  static async load(dataDir: string | undefined): Promise<UrlSigner> {
    return new UrlSigner(await loadKey(dataDir));
  }

  async sign(claims: SignedClaims, expiresInSeconds: number): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ ...claims })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setIssuedAt(now)
      .setExpirationTime(now + expiresInSeconds)
      .sign(this.key);
  }

  /**
   * The token's claims when it was signed here, allows `scope`, names exactly `<bucket>/<name>` and has not
   * expired; otherwise Storage's refusal (InvalidJWT for a token it cannot read, InvalidSignature for one
   * meant for something else).
   */
  async verify(token: string, scope: SignedScope, bucket: string, name: string): Promise<SignedClaims> {
    let claims: SignedClaims;
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ["HS256"], requiredClaims: ["exp"] });
      claims = payload as unknown as SignedClaims;
    } catch (e) {
      const message =
        e instanceof errors.JWTExpired
          ? "jwt expired"
          : e instanceof errors.JWSSignatureVerificationFailed
            ? "invalid signature"
            : "jwt malformed";
      throw new StorageHttpError(400, "InvalidJWT", message);
    }
    if (claims.scope !== scope) throw new StorageHttpError(400, "InvalidSignature", `Token is not scoped for ${scope}`);
    if (claims.url !== `${bucket}/${name}`) throw new StorageHttpError(400, "InvalidSignature", "Invalid signature");
    return claims;
  }
}
