// Storage-compatible objects and buckets under /storage/v1 (Supabase Storage's HTTP API, routed as hosted Storage
// routes it: an unknown route is a 404, `/object/sign/…` is signing, never an upload into a bucket "sign").
// As on hosted Supabase, a bucket's limits are read from storage.buckets, and every read, write or list a caller
// makes is a statement on storage.objects run as their role with their JWT claims (rest.ts actAs), so the
// row-level policies in the migrations decide who may do what; public buckets are read by name as the server,
// and a signed URL is the server's read (or write) of the one object its token names. Bytes live beside the
// database: under <dataDir>/storage/<bucket>/<version> (in memory for an in-memory server), one file per
// version, named by a UUID the server makes, so an object's name never becomes a file path.
import { createHash, randomUUID } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import type { IncomingMessage } from "node:http";
import path from "node:path";
import type { PGlite, Transaction } from "@electric-sql/pglite";
import type { Caller } from "./callers";
import { header, parseBody, readBody, type Reply } from "./http";
import { actAs } from "./rest";
import { BucketApi, MAX_UPLOAD_BYTES } from "./storage-buckets";
import { fromDatabase, storageErrors } from "./storage-errors";
import { UrlSigner } from "./storage-signing";

export { MAX_UPLOAD_BYTES } from "./storage-buckets";
export { StorageHttpError, storageErrors } from "./storage-errors";

/** How long a signed upload URL lasts, as hosted Storage's default (two hours). */
const SIGNED_UPLOAD_SECONDS = 2 * 60 * 60;
/** The most objects one request may name (signing, deleting), as hosted Storage allows. */
const MAX_OBJECTS_PER_REQUEST = 1000;

/** Storage's own rule for object names (its `isValidKey`): printable ASCII from a safe set, no empty name. */
const VALID_KEY = /^(\w|\/|!|-|\.|\*|'|\(|\)| |&|\$|@|=|;|:|\+|,|\?)+$/;

/** Where the bytes of each object version are kept. */
interface BlobStore {
  put(bucket: string, version: string, bytes: Buffer): Promise<void>;
  get(bucket: string, version: string): Promise<Buffer | undefined>;
  remove(bucket: string, version: string): Promise<void>;
}

function memoryStore(): BlobStore {
  const blobs = new Map<string, Buffer>();
  return {
    async put(bucket, version, bytes) {
      blobs.set(`${bucket}/${version}`, bytes);
    },
    async get(bucket, version) {
      return blobs.get(`${bucket}/${version}`);
    },
    async remove(bucket, version) {
      blobs.delete(`${bucket}/${version}`);
    },
  };
}

function folderStore(root: string): BlobStore {
  // Bucket ids come from storage.buckets (checked before any file is touched); encoding them keeps a
  // strange id (a slash, a dot-dot) inside the root all the same.
  const fileOf = (bucket: string, version: string) => path.join(root, encodeURIComponent(bucket), version);
  return {
    async put(bucket, version, bytes) {
      const file = fileOf(bucket, version);
      await mkdir(path.dirname(file), { recursive: true });
      // Written aside and renamed, so a reader never sees half a file.
      await writeFile(`${file}.part`, bytes, { mode: 0o600 });
      await rename(`${file}.part`, file);
    },
    async get(bucket, version) {
      try {
        return await readFile(fileOf(bucket, version));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw e;
      }
    },
    async remove(bucket, version) {
      await rm(fileOf(bucket, version), { force: true });
    },
  };
}

interface Bucket {
  id: string;
  public: boolean;
  file_size_limit: string | number | null;
  allowed_mime_types: string[] | null;
}

interface ObjectMetadata {
  eTag: string;
  size: number;
  mimetype: string;
  cacheControl: string;
  lastModified: string;
  contentLength: number;
  httpStatusCode: number;
}

interface ObjectRow {
  id: string;
  bucket_id: string;
  name: string;
  owner: string | null;
  version: string;
  metadata: ObjectMetadata;
  user_metadata: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
  last_accessed_at: string;
}

const OBJECT_COLUMNS =
  "id, bucket_id, name, owner, version, metadata, user_metadata, created_at, updated_at, last_accessed_at";

/** One uploaded file: its bytes, type, cache lifetime and the uploader's own metadata. */
interface Upload {
  bytes: Buffer;
  contentType: string;
  cacheControl: string;
  userMetadata: Record<string, unknown> | null;
}

const baseType = (type: string) => type.split(";")[0].trim().toLowerCase();
const iso = (value: string | Date) => new Date(value).toISOString();

/** A bucket's allowed types may end in `/*` (image/*), as on hosted Storage. */
function mimeAllowed(type: string, allowed: string[] | null): boolean {
  if (!allowed || allowed.length === 0) return true;
  const wanted = baseType(type);
  return allowed.some((a) => {
    const rule = a.toLowerCase();
    return rule.endsWith("/*") ? wanted.startsWith(rule.slice(0, -1)) : wanted === rule;
  });
}

/** A bucket's limits on one file, whoever writes it (an upload, a signed upload, a copy or a move). */
function checkLimits(bucket: Bucket, size: number, type: string): void {
  if (!mimeAllowed(type, bucket.allowed_mime_types)) throw storageErrors.invalidMimeType(type);
  const limit = bucket.file_size_limit === null ? MAX_UPLOAD_BYTES : Number(bucket.file_size_limit);
  if (size > limit) throw storageErrors.entityTooLarge();
}

/** Storage's cache lifetime: a form's `cacheControl` seconds or the raw request's Cache-Control. */
function cacheControlOf(value: string | undefined): string {
  if (!value) return "max-age=3600";
  return /^\d+$/.test(value) ? `max-age=${value}` : value;
}

/** The uploader's own metadata: a JSON object (a form's `metadata` field, or base64 in `x-metadata`). */
function userMetadataOf(json: string | undefined): Record<string, unknown> | null {
  if (json === undefined) return null;
  try {
    const value: unknown = JSON.parse(json);
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Answered below.
  }
  throw storageErrors.invalidRequest("metadata must be a JSON object");
}

async function uploadFrom(req: IncomingMessage, raw: Buffer): Promise<Upload> {
  const type = header(req, "content-type") ?? "";
  if (baseType(type) === "multipart/form-data") {
    // The platform's own multipart parser (undici's), as a browser would read the same body.
    let form: FormData;
    try {
      form = await new Request("http://embedded.invalid/", {
        method: "POST",
        headers: { "content-type": type },
        body: new Uint8Array(raw),
      }).formData();
    } catch {
      throw storageErrors.invalidRequest("The multipart body could not be read");
    }
    const file = [...form.values()].find((v): v is File => typeof v !== "string");
    if (!file) throw storageErrors.noContent();
    const cache = form.get("cacheControl");
    const metadata = form.get("metadata");
    return {
      bytes: Buffer.from(await file.arrayBuffer()),
      contentType: file.type || "application/octet-stream",
      cacheControl: cacheControlOf(typeof cache === "string" ? cache : undefined),
      userMetadata: userMetadataOf(typeof metadata === "string" ? metadata : undefined),
    };
  }
  const encoded = header(req, "x-metadata");
  return {
    bytes: raw,
    contentType: type || "application/octet-stream",
    cacheControl: cacheControlOf(header(req, "cache-control")),
    userMetadata: userMetadataOf(encoded === undefined ? undefined : Buffer.from(encoded, "base64").toString("utf8")),
  };
}

function objectName(parts: string[]): string {
  const name = parts.join("/");
  if (!VALID_KEY.test(name) || name.split("/").some((s) => s === "" || s === "." || s === ".."))
    throw storageErrors.invalidKey(name);
  return name;
}

const ownerOf = (caller: Caller) => (typeof caller.claims.sub === "string" ? caller.claims.sub : null);

/** The server itself, as hosted Storage's superuser reads public and signed objects. */
const SERVER: Caller = { role: "service_role", claims: { role: "service_role" } };

const fileBody = (row: ObjectRow) => ({
  id: row.id,
  name: row.name,
  bucket_id: row.bucket_id,
  owner: row.owner,
  metadata: row.metadata,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
  last_accessed_at: iso(row.last_accessed_at),
});

/** One listed entry of list-v2 (a folder has a key and a name ending in `/`, nothing else). */
interface ListEntry {
  key: string;
  name: string;
  row?: ObjectRow;
}

/** A request's list of object names (`paths` to sign, `prefixes` to remove): 1 to MAX_OBJECTS_PER_REQUEST strings. */
function objectNames(value: unknown, field: string): string[] {
  if (
    !Array.isArray(value) ||
    value.length === 0 ||
    value.length > MAX_OBJECTS_PER_REQUEST ||
    !value.every((p) => typeof p === "string")
  )
    throw storageErrors.invalidRequest(`${field} must be a list of 1 to ${MAX_OBJECTS_PER_REQUEST} object names`);
  return value;
}

export class StorageService {
  private readonly buckets: BucketApi;

  private constructor(
    private readonly db: PGlite,
    private readonly blobs: BlobStore,
    private readonly signer: UrlSigner,
  ) {
    this.buckets = new BucketApi(db, (id) => this.emptyBucket(id));
  }

  static async open(db: PGlite, dataDir: string | undefined): Promise<StorageService> {
    const blobs = dataDir ? folderStore(path.join(dataDir, "storage")) : memoryStore();
    return new StorageService(db, blobs, await UrlSigner.load(dataDir));
  }

  /**
   * One request under /storage/v1 (`parts` is the rest of the path, its segments percent-decoded). `caller` is
   * resolved lazily: public reads and signed URLs need no key, as Supabase's gateway lets them through.
   */
  async handle(
    req: IncomingMessage,
    method: string,
    parts: string[],
    url: URL,
    caller: () => Promise<Caller>,
  ): Promise<Reply> {
    const [area, ...rest] = parts;
    const unknown = () => storageErrors.notFound(method, `/${parts.join("/")}`);
    const read = method === "GET" || method === "HEAD";
    if (area === "bucket") {
      const answer = await this.buckets.handle(method, rest, url, () => this.jsonBody(req), await caller());
      if (!answer) throw unknown();
      return answer;
    }
    if (area !== "object" || rest.length === 0) throw unknown();
    const [first, second] = rest;
    // Hosted Storage's object routes, the fixed words before a bucket's name (which never shadows them).
    if (first === "public" && read && rest.length >= 3)
      return this.readPublic(req, url, rest[1], objectName(rest.slice(2)));
    if (first === "info" && method === "GET") {
      if (second === "public" && rest.length >= 4) return this.info(rest[2], objectName(rest.slice(3)), null);
      if (second === "authenticated" && rest.length >= 4)
        return this.info(rest[2], objectName(rest.slice(3)), await caller());
      if (rest.length >= 3) return this.info(rest[1], objectName(rest.slice(2)), await caller());
      throw unknown();
    }
    if (first === "sign") {
      if (method === "GET" && rest.length >= 3) return this.readSigned(req, url, rest[1], objectName(rest.slice(2)));
      if (method === "POST" && rest.length >= 3)
        return this.signUrl(req, rest[1], objectName(rest.slice(2)), await caller());
      if (method === "POST" && rest.length === 2) return this.signUrls(req, rest[1], await caller());
      throw unknown();
    }
    if (first === "upload" && second === "sign" && rest.length >= 4) {
      if (method === "POST") return this.signUpload(req, rest[2], objectName(rest.slice(3)), await caller());
      if (method === "PUT") return this.uploadSigned(req, url, rest[2], objectName(rest.slice(3)));
      throw unknown();
    }
    if (first === "authenticated" && read && rest.length >= 3)
      return this.readAsCaller(req, url, rest[1], objectName(rest.slice(2)), await caller());
    if (first === "list" && method === "POST" && rest.length === 2) return this.list(req, rest[1], await caller());
    if (first === "list-v2" && method === "POST" && rest.length === 2) return this.listV2(req, rest[1], await caller());
    if (first === "move" && method === "POST" && rest.length === 1) return this.move(req, await caller());
    if (first === "copy" && method === "POST" && rest.length === 1) return this.copy(req, await caller());
    if (method === "DELETE" && rest.length === 1) return this.removeMany(req, first, await caller());
    if (method === "DELETE") return this.removeOne(first, objectName(rest.slice(1)), await caller());
    if (read && rest.length >= 2) return this.readAsCaller(req, url, first, objectName(rest.slice(1)), await caller());
    if ((method === "POST" || method === "PUT") && rest.length >= 2) {
      const who = await caller();
      // POST creates (x-upsert: true replaces); PUT is storage-js's update(), which replaces.
      const upsert = method === "PUT" || header(req, "x-upsert") === "true";
      return this.upload(req, first, objectName(rest.slice(1)), { upsert, writer: who, owner: ownerOf(who) });
    }
    throw unknown();
  }

  /** A bucket, read as the server, as hosted Storage reads its buckets: limits apply whoever calls. */
  private async findBucket(id: string): Promise<Bucket | undefined> {
    const { rows } = await this.db.query<Bucket>(
      "select id, public, file_size_limit, allowed_mime_types from storage.buckets where id = $1",
      [id],
    );
    return rows[0];
  }

  private async bucket(id: string): Promise<Bucket> {
    const bucket = await this.findBucket(id);
    if (!bucket) throw storageErrors.noSuchBucket();
    return bucket;
  }

  /** Runs `work` in one transaction as `caller`, so their row-level policies decide; a refusal in Storage's words. */
  private async as<T>(caller: Caller, work: (tx: Transaction) => Promise<T>, readOnly = false): Promise<T> {
    try {
      return await this.db.transaction(async (tx) => {
        if (readOnly) await tx.query("set transaction read only");
        await actAs(tx, caller, readOnly ? "GET" : "POST");
        return work(tx);
      });
    } catch (e) {
      throw fromDatabase(e);
    }
  }

  /** The object's row as `caller` may see it (NoSuchKey when they may not). */
  private async findObject(bucketId: string, name: string, caller: Caller): Promise<ObjectRow> {
    const row = await this.as(
      caller,
      async (tx) =>
        (
          await tx.query<ObjectRow>(
            `select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and name = $2`,
            [bucketId, name],
          )
        ).rows[0],
      true,
    );
    if (!row) throw storageErrors.noSuchKey();
    return row;
  }

  private async upload(
    req: IncomingMessage,
    bucketId: string,
    name: string,
    how: { upsert: boolean; writer: Caller; owner: string | null },
  ): Promise<Reply> {
    const bucket = await this.bucket(bucketId);
    const declared = Number(header(req, "content-length") ?? "0");
    // A raw body's length is the file's; a form's is a little more, so only the global cap applies early.
    if (declared > MAX_UPLOAD_BYTES) {
      req.resume();
      throw storageErrors.entityTooLarge();
    }
    const file = await uploadFrom(req, await readBody(req, MAX_UPLOAD_BYTES));
    if (file.bytes.length === 0) throw storageErrors.noContent();
    checkLimits(bucket, file.bytes.length, file.contentType);
    const saved = await this.store(bucket.id, name, file.bytes, {
      metadata: {
        eTag: `"${createHash("md5").update(file.bytes).digest("hex")}"`,
        size: file.bytes.length,
        mimetype: file.contentType,
        cacheControl: file.cacheControl,
        lastModified: new Date().toUTCString(),
        contentLength: file.bytes.length,
        httpStatusCode: 200,
      },
      userMetadata: file.userMetadata,
      ...how,
    });
    return { status: 200, body: { Id: saved.id, Key: `${bucket.id}/${name}` } };
  }

  /**
   * Writes one object: its bytes under a fresh version, then its row as `writer` (their insert policy decides,
   * and their update policy too when `upsert` replaces). Bytes first: a refused or failed row leaves a file this
   * removes, never a row without its bytes; the bytes a replacement made unreachable go after the commit.
   */
  private async store(
    bucketId: string,
    name: string,
    bytes: Buffer,
    o: {
      metadata: ObjectMetadata;
      userMetadata: Record<string, unknown> | null;
      upsert: boolean;
      writer: Caller;
      owner: string | null;
    },
  ): Promise<ObjectRow> {
    const version = randomUUID();
    await this.blobs.put(bucketId, version, bytes);
    let saved: { row: ObjectRow; replaced: string | null };
    try {
      saved = await this.as(o.writer, async (tx) => {
        const previous = o.upsert
          ? (
              await tx.query<{ version: string }>(
                "select version from storage.objects where bucket_id = $1 and name = $2 for update",
                [bucketId, name],
              )
            ).rows[0]
          : undefined;
        const { rows } = await tx.query<ObjectRow>(
          `insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata, user_metadata)
           values ($1, $2, $3::uuid, $3, $4, $5::jsonb, $6::jsonb)
           ${
             o.upsert
               ? `on conflict (bucket_id, name) do update
                    set owner = excluded.owner, owner_id = excluded.owner_id, version = excluded.version,
                        metadata = excluded.metadata, user_metadata = excluded.user_metadata,
                        updated_at = now(), last_accessed_at = now()`
               : ""
           }
           returning ${OBJECT_COLUMNS}`,
          [bucketId, name, o.owner, version, JSON.stringify(o.metadata), JSON.stringify(o.userMetadata)],
        );
        return { row: rows[0], replaced: previous?.version ?? null };
      });
    } catch (e) {
      await this.blobs.remove(bucketId, version);
      throw e;
    }
    if (saved.replaced) await this.blobs.remove(bucketId, saved.replaced);
    return saved.row;
  }

  /** An object's bytes as Storage answers them, `?download` making it an attachment. */
  private async render(req: IncomingMessage, url: URL, row: ObjectRow, extra: Record<string, string> = {}) {
    const bytes = await this.blobs.get(row.bucket_id, row.version);
    if (!bytes) throw storageErrors.noSuchKey();
    const headers: Record<string, string> = {
      "Content-Type": row.metadata.mimetype,
      "Cache-Control": row.metadata.cacheControl,
      ETag: row.metadata.eTag,
      "Last-Modified": row.metadata.lastModified,
      "X-Content-Type-Options": "nosniff",
      ...extra,
    };
    const download = url.searchParams.get("download");
    if (download !== null) {
      const filename = download || row.name.split("/").pop() || row.name;
      headers["Content-Disposition"] = `attachment; filename*=UTF-8''${encodeURIComponent(filename)}`;
    }
    if (header(req, "if-none-match") === row.metadata.eTag) return { status: 304, headers };
    return { status: 200, body: bytes, headers };
  }

  private async readPublic(req: IncomingMessage, url: URL, bucketId: string, name: string): Promise<Reply> {
    const bucket = await this.findBucket(bucketId);
    if (!bucket?.public) throw storageErrors.noSuchBucket();
    return this.render(req, url, await this.findObject(bucketId, name, SERVER));
  }

  /** An authenticated read: a public bucket's object by name, a private one's only if the caller's policies let them. */
  private async readAsCaller(req: IncomingMessage, url: URL, bucketId: string, name: string, caller: Caller) {
    const bucket = await this.bucket(bucketId);
    return this.render(req, url, await this.findObject(bucketId, name, bucket.public ? SERVER : caller));
  }

  /** `caller` null is the public info route, open for public buckets only. */
  private async info(bucketId: string, name: string, caller: Caller | null): Promise<Reply> {
    const bucket = await this.findBucket(bucketId);
    if (!bucket || (!caller && !bucket.public)) throw storageErrors.noSuchBucket();
    const row = await this.findObject(bucketId, name, bucket.public || !caller ? SERVER : caller);
    return {
      status: 200,
      headers: { ETag: row.metadata.eTag, "Last-Modified": row.metadata.lastModified },
      body: {
        id: row.id,
        name: row.name,
        version: row.version,
        bucket_id: row.bucket_id,
        size: row.metadata.size ?? null,
        content_type: row.metadata.mimetype ?? null,
        cache_control: row.metadata.cacheControl ?? null,
        etag: row.metadata.eTag ?? null,
        metadata: row.user_metadata ?? {},
        last_modified: iso(row.updated_at),
        created_at: iso(row.created_at),
      },
    };
  }

  private async jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
    const raw = await readBody(req);
    if (raw.length === 0) return {};
    const body = parseBody(req, raw);
    if (!body || typeof body !== "object" || Array.isArray(body))
      throw storageErrors.invalidRequest("body must be object");
    return body as Record<string, unknown>;
  }

  private static expiresIn(body: Record<string, unknown>): number {
    const seconds = body.expiresIn;
    if (seconds === undefined) throw storageErrors.invalidRequest("body must have required property 'expiresIn'");
    if (typeof seconds !== "number" || !Number.isInteger(seconds) || seconds < 1)
      throw storageErrors.invalidRequest("body/expiresIn must be an integer >= 1");
    return seconds;
  }

  private async signUrl(req: IncomingMessage, bucketId: string, name: string, caller: Caller): Promise<Reply> {
    const seconds = StorageService.expiresIn(await this.jsonBody(req));
    // Only an object the caller may read is signed (their select policy), as hosted Storage checks.
    await this.findObject(bucketId, name, caller);
    const token = await this.signer.sign({ url: `${bucketId}/${name}`, scope: "download" }, seconds);
    return { status: 200, body: { signedURL: `/object/sign/${bucketId}/${name}?token=${token}` } };
  }

  private async signUrls(req: IncomingMessage, bucketId: string, caller: Caller): Promise<Reply> {
    const body = await this.jsonBody(req);
    const seconds = StorageService.expiresIn(body);
    const paths = objectNames(body.paths, "paths");
    const visible = new Set(
      await this.as(
        caller,
        async (tx) =>
          (
            await tx.query<{ name: string }>(
              "select name from storage.objects where bucket_id = $1 and name = any($2::text[])",
              [bucketId, paths],
            )
          ).rows.map((r) => r.name),
        true,
      ),
    );
    const answers = await Promise.all(
      paths.map(async (p) =>
        visible.has(p)
          ? {
              error: null,
              path: p,
              signedURL: `/object/sign/${bucketId}/${p}?token=${await this.signer.sign({ url: `${bucketId}/${p}`, scope: "download" }, seconds)}`,
            }
          : { error: "Either the object does not exist or you do not have access to it", path: p, signedURL: null },
      ),
    );
    return { status: 200, body: answers };
  }

  private static token(url: URL): string {
    const token = url.searchParams.get("token");
    if (!token) throw storageErrors.invalidRequest("querystring must have required property 'token'");
    return token;
  }

  private async readSigned(req: IncomingMessage, url: URL, bucketId: string, name: string): Promise<Reply> {
    await this.signer.verify(StorageService.token(url), "download", bucketId, name);
    return this.render(req, url, await this.findObject(bucketId, name, SERVER));
  }

  private async signUpload(req: IncomingMessage, bucketId: string, name: string, caller: Caller): Promise<Reply> {
    await this.bucket(bucketId);
    const upsert = header(req, "x-upsert") === "true";
    const owner = ownerOf(caller);
    // The caller's policies decide now, as they would for their own upload: the row is tried and rolled back.
    await this.as(caller, async (tx) => {
      await tx.query("savepoint try_upload");
      await tx.query(
        `insert into storage.objects (bucket_id, name, owner, owner_id, version)
         values ($1, $2, $3::uuid, $3, 'signed-upload-check')
         ${upsert ? "on conflict (bucket_id, name) do update set updated_at = now()" : ""}`,
        [bucketId, name, owner],
      );
      await tx.query("rollback to savepoint try_upload");
    });
    const token = await this.signer.sign(
      { url: `${bucketId}/${name}`, scope: "upload", owner, upsert },
      SIGNED_UPLOAD_SECONDS,
    );
    return { status: 200, body: { url: `/object/upload/sign/${bucketId}/${name}?token=${token}`, token } };
  }

  private async uploadSigned(req: IncomingMessage, url: URL, bucketId: string, name: string): Promise<Reply> {
    const claims = await this.signer.verify(StorageService.token(url), "upload", bucketId, name);
    // The token's signer was checked when it was made; the write itself is the server's, as on hosted Storage.
    return this.upload(req, bucketId, name, {
      upsert: claims.upsert === true,
      writer: SERVER,
      owner: typeof claims.owner === "string" ? claims.owner : null,
    });
  }

  private async list(req: IncomingMessage, bucketId: string, caller: Caller): Promise<Reply> {
    const body = await this.jsonBody(req);
    const prefix = typeof body.prefix === "string" ? body.prefix.replace(/^\/+|\/+$/g, "") : "";
    const folder = prefix ? `${prefix}/` : "";
    const limit = Math.min(1000, Math.max(1, Number(body.limit ?? 100) || 100));
    const offset = Math.max(0, Number(body.offset ?? 0) || 0);
    const search = typeof body.search === "string" ? body.search : "";
    const sortBy = (body.sortBy ?? {}) as { column?: unknown; order?: unknown };
    const column = ["name", "created_at", "updated_at", "last_accessed_at"].includes(String(sortBy.column))
      ? String(sortBy.column)
      : "name";
    const descending = String(sortBy.order).toLowerCase() === "desc";

    // The caller's rows only (their policies' select), as hosted Storage's storage.search runs.
    const rows = await this.rowsUnder(bucketId, folder, caller);
    const entries = new Map<string, Record<string, unknown>>();
    for (const row of rows) {
      const rest = row.name.slice(folder.length);
      const slash = rest.indexOf("/");
      const entryName = slash === -1 ? rest : rest.slice(0, slash);
      if (search && !entryName.toLowerCase().startsWith(search.toLowerCase())) continue;
      if (slash !== -1) {
        entries.set(`${entryName}/`, {
          name: entryName,
          id: null,
          updated_at: null,
          created_at: null,
          last_accessed_at: null,
          metadata: null,
        });
      } else {
        entries.set(entryName, {
          name: entryName,
          id: row.id,
          updated_at: iso(row.updated_at),
          created_at: iso(row.created_at),
          last_accessed_at: iso(row.last_accessed_at),
          metadata: row.metadata,
        });
      }
    }
    const sorted = [...entries.values()].sort((a, b) => {
      const [x, y] = [String(a[column] ?? ""), String(b[column] ?? "")];
      const order = x < y ? -1 : x > y ? 1 : 0;
      return descending ? -order : order;
    });
    return { status: 200, body: sorted.slice(offset, offset + limit) };
  }

  private rowsUnder(bucketId: string, prefix: string, caller: Caller): Promise<ObjectRow[]> {
    return this.as(
      caller,
      async (tx) =>
        (
          await tx.query<ObjectRow>(
            `select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and left(name, length($2)) = $2`,
            [bucketId, prefix],
          )
        ).rows,
      true,
    );
  }

  /**
   * list-v2: objects under a prefix by full name, or with `with_delimiter` one level of it (folders apart),
   * sorted by name or a date (name breaking ties), a page at a time with an opaque cursor.
   */
  private async listV2(req: IncomingMessage, bucketId: string, caller: Caller): Promise<Reply> {
    const body = await this.jsonBody(req);
    const prefix = typeof body.prefix === "string" ? body.prefix : "";
    const delimited = body.with_delimiter === true;
    const limit = Math.min(1000, Math.max(1, Number(body.limit ?? 1000) || 1000));
    const sortBy = (body.sortBy ?? {}) as { column?: unknown; order?: unknown };
    const column = sortBy.column === "created_at" || sortBy.column === "updated_at" ? sortBy.column : "name";
    const descending = String(sortBy.order ?? "asc").toLowerCase() === "desc";

    const entries = new Map<string, ListEntry>();
    for (const row of await this.rowsUnder(bucketId, prefix, caller)) {
      const rest = row.name.slice(prefix.length);
      const slash = delimited ? rest.indexOf("/") : -1;
      if (slash === -1) {
        entries.set(row.name, { key: rest.split("/").pop() ?? rest, name: row.name, row });
      } else {
        const name = `${prefix}${rest.slice(0, slash + 1)}`;
        entries.set(name, { key: rest.slice(0, slash), name });
      }
    }
    // A folder has no dates: it sorts before every object by its name.
    const sortValue = (e: ListEntry) => (column === "name" || !e.row ? "" : iso(e.row[column]));
    const compare = (a: { value: string; name: string }, b: { value: string; name: string }) => {
      const order = a.value < b.value ? -1 : a.value > b.value ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
      return descending ? -order : order;
    };
    let list = [...entries.values()].map((e) => ({ e, value: sortValue(e), name: e.name })).sort(compare);
    if (typeof body.cursor === "string" && body.cursor) {
      let after: { value: string; name: string };
      try {
        after = JSON.parse(Buffer.from(body.cursor, "base64url").toString("utf8")) as { value: string; name: string };
      } catch {
        throw storageErrors.invalidRequest("Invalid cursor");
      }
      list = list.filter((item) => compare(item, after) > 0);
    }
    const page = list.slice(0, limit);
    const hasNext = list.length > limit;
    const last = page[page.length - 1];
    return {
      status: 200,
      body: {
        hasNext,
        ...(hasNext && last
          ? {
              nextCursor: Buffer.from(JSON.stringify({ value: last.value, name: last.name })).toString("base64url"),
              nextCursorKey: last.name,
            }
          : {}),
        folders: page.filter(({ e }) => !e.row).map(({ e }) => ({ key: e.key, name: e.name })),
        objects: page
          .filter(({ e }) => e.row)
          .map(({ e }) => ({ ...fileBody(e.row!), key: e.key, user_metadata: e.row!.user_metadata })),
      },
    };
  }

  /** move and copy: where from and where to, each checked as Storage checks an object name. */
  private async transfer(req: IncomingMessage) {
    const body = await this.jsonBody(req);
    for (const field of ["bucketId", "sourceKey", "destinationKey"])
      if (typeof body[field] !== "string")
        throw storageErrors.invalidRequest(`body must have required property '${field}'`);
    const from = String(body.bucketId);
    const to = typeof body.destinationBucket === "string" && body.destinationBucket ? body.destinationBucket : from;
    const sourceKey = objectName(String(body.sourceKey).split("/"));
    const destinationKey = objectName(String(body.destinationKey).split("/"));
    return { body, from, to, sourceKey, destinationKey, destination: await this.bucket(to) };
  }

  /**
   * Renames an object (across buckets too) as one update run as the caller: their update policy must let them
   * change the row where it is (using) and where it goes (with check), as hosted Storage requires.
   */
  private async move(req: IncomingMessage, caller: Caller): Promise<Reply> {
    const { from, to, sourceKey, destinationKey, destination } = await this.transfer(req);
    const source = await this.findObject(from, sourceKey, caller);
    checkLimits(destination, source.metadata.size, source.metadata.mimetype);
    if (from !== to) {
      const bytes = await this.blobs.get(from, source.version);
      if (!bytes) throw storageErrors.noSuchKey();
      await this.blobs.put(to, source.version, bytes);
    }
    let moved: ObjectRow | undefined;
    try {
      moved = await this.as(
        caller,
        async (tx) =>
          (
            await tx.query<ObjectRow>(
              `update storage.objects set bucket_id = $3, name = $4, updated_at = now(), last_accessed_at = now()
                where bucket_id = $1 and name = $2 returning ${OBJECT_COLUMNS}`,
              [from, sourceKey, to, destinationKey],
            )
          ).rows[0],
      );
    } catch (e) {
      if (from !== to) await this.blobs.remove(to, source.version);
      throw e;
    }
    if (!moved) {
      if (from !== to) await this.blobs.remove(to, source.version);
      throw storageErrors.noSuchKey();
    }
    if (from !== to) await this.blobs.remove(from, source.version);
    return { status: 200, body: { message: "Successfully moved", Id: moved.id, Key: moved.name } };
  }

  /** Copies an object: the caller must read the source and may add (or, with x-upsert, replace) the copy. */
  private async copy(req: IncomingMessage, caller: Caller): Promise<Reply> {
    const { body, from, to, sourceKey, destinationKey, destination } = await this.transfer(req);
    const source = await this.findObject(from, sourceKey, caller);
    const bytes = await this.blobs.get(from, source.version);
    if (!bytes) throw storageErrors.noSuchKey();
    const override = (body.metadata ?? {}) as { cacheControl?: unknown; mimetype?: unknown };
    const metadata: ObjectMetadata = {
      ...source.metadata,
      ...(typeof override.cacheControl === "string" ? { cacheControl: override.cacheControl } : {}),
      ...(typeof override.mimetype === "string" ? { mimetype: override.mimetype } : {}),
      lastModified: new Date().toUTCString(),
    };
    checkLimits(destination, metadata.size, metadata.mimetype);
    const encoded = header(req, "x-metadata");
    const userMetadata =
      encoded !== undefined
        ? userMetadataOf(Buffer.from(encoded, "base64").toString("utf8"))
        : body.copyMetadata === false
          ? null
          : source.user_metadata;
    const copied = await this.store(destination.id, destinationKey, bytes, {
      metadata,
      userMetadata,
      upsert: header(req, "x-upsert") === "true",
      writer: caller,
      owner: ownerOf(caller),
    });
    return { status: 200, body: { Id: copied.id, Key: `${to}/${destinationKey}`, ...fileBody(copied) } };
  }

  private async removeRows(bucketId: string, names: string[], caller: Caller): Promise<ObjectRow[]> {
    // What the policies let the caller delete goes; the rest stays, silently, as on hosted Storage.
    const deleted = await this.as(
      caller,
      async (tx) =>
        (
          await tx.query<ObjectRow>(
            `delete from storage.objects where bucket_id = $1 and name = any($2::text[]) returning ${OBJECT_COLUMNS}`,
            [bucketId, names],
          )
        ).rows,
    );
    for (const row of deleted) await this.blobs.remove(bucketId, row.version);
    return deleted;
  }

  private async removeMany(req: IncomingMessage, bucketId: string, caller: Caller): Promise<Reply> {
    const prefixes = objectNames((await this.jsonBody(req)).prefixes, "prefixes");
    const deleted = await this.removeRows(bucketId, prefixes, caller);
    return { status: 200, body: deleted.map(fileBody) };
  }

  private async removeOne(bucketId: string, name: string, caller: Caller): Promise<Reply> {
    const deleted = await this.removeRows(bucketId, [name], caller);
    if (deleted.length === 0) throw storageErrors.noSuchKey();
    return { status: 200, body: { message: "Successfully deleted" } };
  }

  /** Every object of a bucket, rows and bytes, as the server (the bucket API's empty, for the service role). */
  private async emptyBucket(bucketId: string): Promise<void> {
    const { rows } = await this.db.query<{ version: string }>(
      "delete from storage.objects where bucket_id = $1 returning version",
      [bucketId],
    );
    for (const row of rows) await this.blobs.remove(bucketId, row.version);
  }
}
