// Storage-compatible objects under /storage/v1 (Supabase Storage's HTTP API, the part
// @supabase/storage-js uses for upload, public URL, list and delete). As on hosted Supabase, a
// bucket's limits are read from storage.buckets, and every write or list is a statement on
// storage.objects run as the caller's role with their JWT claims (rest.ts actAs), so the row-level
// policies in the migrations decide who may do what. Bytes live beside the database: under
// <dataDir>/storage/<bucket>/<version> (in memory for an in-memory server), one file per version,
// named by a UUID the server makes, so an object's name never becomes a file path.
import { createHash, randomUUID } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import type { IncomingMessage } from "node:http";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { Caller } from "./callers";
import { header, parseBody, readBody, type Reply } from "./http";
import { actAs } from "./rest";

/** Hosted Storage's default global upload limit (a bucket's own limit is usually lower). */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

/**
 * Storage's error: the body is `{statusCode, code, error, message}` with the HTTP status as text, and
 * the response itself is 400 for every refusal (500 for a failure), as hosted Storage answers
 * (storage-js reads the body's statusCode; `status` is the HTTP one).
 */
export class StorageHttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly legacyError: string = code,
    /** The HTTP status when it is not Storage's usual 400/500 (an unknown route is Fastify's own 404). */
    readonly httpStatus?: number,
  ) {
    super(message);
  }

  reply(): Reply {
    return {
      status: this.httpStatus ?? (this.statusCode >= 500 ? 500 : 400),
      body: { statusCode: String(this.statusCode), code: this.code, error: this.legacyError, message: this.message },
      // The rest of a refused upload may still be arriving: close after answering (server.ts, 413).
      headers: this.code === "EntityTooLarge" ? { Connection: "close" } : undefined,
    };
  }
}

export const storageErrors = {
  noSuchBucket: () => new StorageHttpError(404, "NoSuchBucket", "Bucket not found", "Bucket not found"),
  noSuchKey: () => new StorageHttpError(404, "NoSuchKey", "Object not found", "not_found"),
  accessDenied: (message: string) => new StorageHttpError(403, "AccessDenied", message, "Unauthorized"),
  invalidJwt: (message: string) => new StorageHttpError(403, "InvalidJWT", message, "Unauthorized"),
  keyAlreadyExists: () => new StorageHttpError(409, "KeyAlreadyExists", "The resource already exists", "Duplicate"),
  entityTooLarge: () =>
    new StorageHttpError(413, "EntityTooLarge", "The object exceeded the maximum allowed size", "Payload too large"),
  invalidMimeType: (type: string) =>
    new StorageHttpError(415, "InvalidMimeType", `mime type ${type} is not supported`, "invalid_mime_type"),
  invalidKey: (key: string) => new StorageHttpError(400, "InvalidKey", `Invalid key: ${key}`),
  invalidRequest: (message: string) => new StorageHttpError(400, "InvalidRequest", message),
  noContent: () => new StorageHttpError(400, "InvalidRequest", "No content provided"),
  notFound: (method: string, route: string) =>
    new StorageHttpError(404, "NotFound", `Route ${method}:${route} not found`, "Not Found", 404),
};

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
  name: string;
  version: string;
  metadata: ObjectMetadata;
  created_at: string;
  updated_at: string;
  last_accessed_at: string;
}

interface PgError {
  code?: string;
  message?: string;
}

/** One uploaded file: its bytes, type and cache lifetime, from a multipart form or a raw body. */
interface Upload {
  bytes: Buffer;
  contentType: string;
  cacheControl: string;
}

const baseType = (type: string) => type.split(";")[0].trim().toLowerCase();

/** A bucket's allowed types may end in `/*` (image/*), as on hosted Storage. */
function mimeAllowed(type: string, allowed: string[] | null): boolean {
  if (!allowed || allowed.length === 0) return true;
  const wanted = baseType(type);
  return allowed.some((a) => {
    const rule = a.toLowerCase();
    return rule.endsWith("/*") ? wanted.startsWith(rule.slice(0, -1)) : wanted === rule;
  });
}

/** Storage's cache lifetime: a form's `cacheControl` seconds or the raw request's Cache-Control. */
function cacheControlOf(value: string | undefined): string {
  if (!value) return "max-age=3600";
  return /^\d+$/.test(value) ? `max-age=${value}` : value;
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
    return {
      bytes: Buffer.from(await file.arrayBuffer()),
      contentType: file.type || "application/octet-stream",
      cacheControl: cacheControlOf(typeof cache === "string" ? cache : undefined),
    };
  }
  return {
    bytes: raw,
    contentType: type || "application/octet-stream",
    cacheControl: cacheControlOf(header(req, "cache-control")),
  };
}

function objectName(parts: string[]): string {
  const name = parts.join("/");
  if (!VALID_KEY.test(name) || name.split("/").some((s) => s === "" || s === "." || s === ".."))
    throw storageErrors.invalidKey(name);
  return name;
}

/** A database refusal in Storage's words: a policy's refusal is AccessDenied, a taken name Duplicate. */
function fromDatabase(e: unknown): unknown {
  const pg = e as PgError;
  if (pg.code === "42501") return storageErrors.accessDenied(pg.message?.replace(/ for table "objects"$/, "") ?? "");
  if (pg.code === "23505") return storageErrors.keyAlreadyExists();
  return e;
}

export class StorageService {
  private readonly blobs: BlobStore;

  constructor(
    private readonly db: PGlite,
    dataDir: string | undefined,
  ) {
    this.blobs = dataDir ? folderStore(path.join(dataDir, "storage")) : memoryStore();
  }

  /**
   * One request under /storage/v1 (`sub` is the rest of the path, still percent-encoded segments
   * decoded by the caller). `caller` is resolved lazily: public reads need no key.
   */
  async handle(req: IncomingMessage, method: string, parts: string[], caller: () => Promise<Caller>): Promise<Reply> {
    const [area, ...rest] = parts;
    const unknown = () => storageErrors.notFound(method, `/${parts.join("/")}`);
    if (area !== "object") throw unknown();
    if ((method === "GET" || method === "HEAD") && rest[0] === "public" && rest.length >= 3) {
      return this.readPublic(req, rest[1], objectName(rest.slice(2)));
    }
    if (method === "POST" && rest[0] === "list" && rest.length === 2) {
      return this.list(req, rest[1], await caller());
    }
    if (method === "DELETE" && rest.length === 1) {
      return this.remove(req, rest[0], await caller());
    }
    if ((method === "POST" || method === "PUT") && rest.length >= 2) {
      const who = await caller();
      // POST creates (x-upsert: true replaces); PUT is storage-js's update(), which replaces.
      const upsert = method === "PUT" || header(req, "x-upsert") === "true";
      return this.upload(req, rest[0], objectName(rest.slice(1)), upsert, who);
    }
    throw unknown();
  }

  private async bucket(id: string): Promise<Bucket> {
    // Read as the server, as hosted Storage reads its buckets: limits apply whoever calls.
    const { rows } = await this.db.query<Bucket>(
      "select id, public, file_size_limit, allowed_mime_types from storage.buckets where id = $1",
      [id],
    );
    if (!rows[0]) throw storageErrors.noSuchBucket();
    return rows[0];
  }

  private async upload(
    req: IncomingMessage,
    bucketId: string,
    name: string,
    upsert: boolean,
    caller: Caller,
  ): Promise<Reply> {
    const bucket = await this.bucket(bucketId);
    const limit = bucket.file_size_limit === null ? MAX_UPLOAD_BYTES : Number(bucket.file_size_limit);
    const declared = Number(header(req, "content-length") ?? "0");
    // A raw body's length is the file's; a form's is a little more, so only the global cap applies early.
    if (declared > MAX_UPLOAD_BYTES) {
      req.resume();
      throw storageErrors.entityTooLarge();
    }
    const file = await uploadFrom(req, await readBody(req, MAX_UPLOAD_BYTES));
    if (file.bytes.length === 0) throw storageErrors.noContent();
    if (file.bytes.length > limit) throw storageErrors.entityTooLarge();
    if (!mimeAllowed(file.contentType, bucket.allowed_mime_types))
      throw storageErrors.invalidMimeType(file.contentType);

    const version = randomUUID();
    const metadata: ObjectMetadata = {
      eTag: `"${createHash("md5").update(file.bytes).digest("hex")}"`,
      size: file.bytes.length,
      mimetype: file.contentType,
      cacheControl: file.cacheControl,
      lastModified: new Date().toUTCString(),
      contentLength: file.bytes.length,
      httpStatusCode: 200,
    };
    // Bytes first, then the row: a refused or failed row leaves a file this removes, never a row
    // without its bytes.
    await this.blobs.put(bucket.id, version, file.bytes);
    let saved: { id: string; replaced: string | null };
    try {
      saved = await this.db.transaction(async (tx) => {
        await actAs(tx, caller, "POST");
        const previous = upsert
          ? (
              await tx.query<{ version: string }>(
                "select version from storage.objects where bucket_id = $1 and name = $2 for update",
                [bucket.id, name],
              )
            ).rows[0]
          : undefined;
        const owner = typeof caller.claims.sub === "string" ? caller.claims.sub : null;
        const { rows } = await tx.query<{ id: string }>(
          `insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata)
           values ($1, $2, $3::uuid, $3, $4, $5::jsonb)
           ${
             upsert
               ? `on conflict (bucket_id, name) do update
                    set owner = excluded.owner, owner_id = excluded.owner_id, version = excluded.version,
                        metadata = excluded.metadata, updated_at = now(), last_accessed_at = now()`
               : ""
           }
           returning id`,
          [bucket.id, name, owner, version, JSON.stringify(metadata)],
        );
        return { id: rows[0].id, replaced: previous?.version ?? null };
      });
    } catch (e) {
      await this.blobs.remove(bucket.id, version);
      throw fromDatabase(e);
    }
    if (saved.replaced) await this.blobs.remove(bucket.id, saved.replaced);
    return { status: 200, body: { Id: saved.id, Key: `${bucket.id}/${name}` } };
  }

  private async readPublic(req: IncomingMessage, bucketId: string, name: string): Promise<Reply> {
    const { rows: buckets } = await this.db.query<{ id: string }>(
      "select id from storage.buckets where id = $1 and public",
      [bucketId],
    );
    if (!buckets[0]) throw storageErrors.noSuchBucket();
    const { rows } = await this.db.query<ObjectRow>(
      "select id, name, version, metadata from storage.objects where bucket_id = $1 and name = $2",
      [bucketId, name],
    );
    const row = rows[0];
    const bytes = row ? await this.blobs.get(bucketId, row.version) : undefined;
    if (!row || !bytes) throw storageErrors.noSuchKey();
    const headers: Record<string, string> = {
      "Content-Type": row.metadata.mimetype,
      "Cache-Control": row.metadata.cacheControl,
      ETag: row.metadata.eTag,
      "Last-Modified": row.metadata.lastModified,
      "X-Content-Type-Options": "nosniff",
    };
    if (header(req, "if-none-match") === row.metadata.eTag) return { status: 304, headers };
    return { status: 200, body: bytes, headers };
  }

  private async jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
    const body = parseBody(req, await readBody(req));
    if (!body || typeof body !== "object" || Array.isArray(body))
      throw storageErrors.invalidRequest("body must be object");
    return body as Record<string, unknown>;
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
    const rows = await this.db.transaction(async (tx) => {
      await tx.query("set transaction read only");
      await actAs(tx, caller, "POST");
      return (
        await tx.query<ObjectRow>(
          `select id, name, metadata, created_at, updated_at, last_accessed_at from storage.objects
            where bucket_id = $1 and left(name, length($2)) = $2`,
          [bucketId, folder],
        )
      ).rows;
    });
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
          updated_at: new Date(row.updated_at).toISOString(),
          created_at: new Date(row.created_at).toISOString(),
          last_accessed_at: new Date(row.last_accessed_at).toISOString(),
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

  private async remove(req: IncomingMessage, bucketId: string, caller: Caller): Promise<Reply> {
    const body = await this.jsonBody(req);
    const prefixes = body.prefixes;
    if (
      !Array.isArray(prefixes) ||
      prefixes.length === 0 ||
      prefixes.length > 1000 ||
      !prefixes.every((p) => typeof p === "string")
    ) {
      throw storageErrors.invalidRequest("prefixes must be a list of 1 to 1000 object names");
    }
    let deleted: Array<ObjectRow & { bucket_id: string; owner: string | null }>;
    try {
      deleted = await this.db.transaction(async (tx) => {
        await actAs(tx, caller, "DELETE");
        // What the policies let the caller delete goes; the rest stays, silently, as on hosted Storage.
        return (
          await tx.query<ObjectRow & { bucket_id: string; owner: string | null }>(
            `delete from storage.objects where bucket_id = $1 and name = any($2::text[])
             returning id, name, bucket_id, owner, version, metadata, created_at, updated_at, last_accessed_at`,
            [bucketId, prefixes],
          )
        ).rows;
      });
    } catch (e) {
      throw fromDatabase(e);
    }
    for (const row of deleted) await this.blobs.remove(bucketId, row.version);
    return {
      status: 200,
      body: deleted.map((row) => ({
        id: row.id,
        name: row.name,
        bucket_id: row.bucket_id,
        owner: row.owner,
        metadata: row.metadata,
        created_at: new Date(row.created_at).toISOString(),
        updated_at: new Date(row.updated_at).toISOString(),
        last_accessed_at: new Date(row.last_accessed_at).toISOString(),
      })),
    };
  }
}
