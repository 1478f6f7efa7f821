// Storage's bucket API (/storage/v1/bucket), as hosted Storage serves it: each statement on storage.buckets runs
// as the caller, so its row-level security decides (no policy opens it to anon or authenticated: the secret
// key's service_role manages buckets), and emptying a bucket is for the service role alone.
import type { PGlite, Transaction } from "@electric-sql/pglite";
import type { Caller } from "./callers";
import type { Reply } from "./http";
import { actAs } from "./rest";
import { fromDatabase, storageErrors } from "./storage-errors";

/** Hosted Storage's default global upload limit (a bucket's own limit is usually lower). */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

/** Storage's bucket names: S3-safe characters, 1 to 100 of them, no slash. */
const VALID_BUCKET_NAME = /^[A-Za-z0-9_!.*'() &$=@;:+,?-]{1,100}$/;
/** A MIME type rule as Storage accepts one (`image/png`, `image/*`). */
const VALID_MIME_RULE = /^[a-z0-9!#$&^_.+-]+\/([a-z0-9!#$&^_.+-]+|\*)$/i;
const BUCKET_COLUMNS = "id, name, owner, public, file_size_limit, allowed_mime_types, created_at, updated_at";
const SORT_COLUMNS = new Set(["id", "name", "created_at", "updated_at"]);

interface BucketRow {
  id: string;
  name: string;
  owner: string | null;
  public: boolean;
  file_size_limit: string | number | bigint | null;
  allowed_mime_types: string[] | null;
  created_at: Date;
  updated_at: Date;
}

const bucketBody = (row: BucketRow) => ({
  id: row.id,
  name: row.name,
  owner: row.owner,
  public: row.public,
  file_size_limit: row.file_size_limit === null ? null : Number(row.file_size_limit),
  allowed_mime_types: row.allowed_mime_types,
  created_at: new Date(row.created_at).toISOString(),
  updated_at: new Date(row.updated_at).toISOString(),
});

/** Storage's size limits: a number of bytes, or `20mb` / `30KB` / `3b` in decimal units; never above the global cap. */
export function fileSizeLimitOf(value: unknown): number | null | undefined {
  if (value === undefined || value === null) return value;
  let bytes: number;
  if (typeof value === "number") bytes = value;
  else if (typeof value === "string") {
    const match = /^([0-9]+(?:\.[0-9]+)?)(gb|mb|kb|b)$/i.exec(value.trim());
    if (!match) throw storageErrors.invalidFileSizeLimit();
    const unit = { gb: 1e9, mb: 1e6, kb: 1e3, b: 1 }[match[2].toLowerCase() as "gb" | "mb" | "kb" | "b"];
    bytes = Number(Number.parseFloat(match[1]).toPrecision(3)) * unit;
  } else throw storageErrors.invalidFileSizeLimit();
  if (!Number.isFinite(bytes) || bytes < 0) throw storageErrors.invalidFileSizeLimit();
  if (bytes > MAX_UPLOAD_BYTES) throw storageErrors.entityTooLarge();
  return Math.round(bytes);
}

function mimeTypesOf(value: unknown): string[] | null | undefined {
  if (value === undefined || value === null) return value;
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string"))
    throw storageErrors.invalidRequest("allowed_mime_types must be a list of MIME types");
  const types = value.filter((v) => v !== "");
  for (const type of types) if (!VALID_MIME_RULE.test(type)) throw storageErrors.invalidMimeType(type);
  return types;
}

export class BucketApi {
  constructor(
    private readonly db: PGlite,
    /** Removes every object of a bucket, bytes and rows (the object API's, which owns the bytes). */
    private readonly emptyAll: (bucketId: string) => Promise<void>,
  ) {}

  async handle(method: string, rest: string[], url: URL, body: () => Promise<Record<string, unknown>>, caller: Caller) {
    if (rest.length === 0 && method === "GET") return this.list(url, caller);
    if (rest.length === 0 && method === "POST") return this.create(await body(), caller);
    if (rest.length === 1 && method === "GET") return this.get(rest[0], caller);
    if (rest.length === 1 && method === "PUT") return this.update(rest[0], await body(), caller);
    if (rest.length === 1 && method === "DELETE") return this.remove(rest[0], caller);
    if (rest.length === 2 && rest[1] === "empty" && method === "POST") return this.empty(rest[0], caller);
    return undefined;
  }

  private as<T>(caller: Caller, work: (tx: Transaction) => Promise<T>) {
    return this.db.transaction(async (tx) => {
      await actAs(tx, caller, "POST");
      return work(tx);
    });
  }

  private async list(url: URL, caller: Caller): Promise<Reply> {
    const q = url.searchParams;
    const integer = (name: string, min: number) => {
      const raw = q.get(name);
      if (raw === null) return undefined;
      const n = Number(raw);
      if (!Number.isInteger(n) || n < min) throw storageErrors.invalidRequest(`querystring/${name} must be >= ${min}`);
      return n;
    };
    const limit = integer("limit", 1);
    const offset = integer("offset", 0) ?? 0;
    const column = q.get("sortColumn") ?? "name";
    if (!SORT_COLUMNS.has(column))
      throw storageErrors.invalidRequest("querystring/sortColumn must be equal to one of the allowed values");
    const order = (q.get("sortOrder") ?? "asc").toLowerCase();
    if (order !== "asc" && order !== "desc")
      throw storageErrors.invalidRequest("querystring/sortOrder must be equal to one of the allowed values");
    const search = q.get("search") ?? "";
    const rows = await this.as(caller, async (tx) => {
      const { rows } = await tx.query<BucketRow>(
        `select ${BUCKET_COLUMNS} from storage.buckets
          where ($1 = '' or name ilike '%' || replace(replace(replace($1, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%')
          order by ${column} ${order} limit $2 offset $3`,
        [search, limit ?? null, offset],
      );
      return rows;
    });
    return { status: 200, body: rows.map((row) => ({ ...bucketBody(row), type: "STANDARD" })) };
  }

  private async get(id: string, caller: Caller): Promise<Reply> {
    const row = await this.as(
      caller,
      async (tx) =>
        (await tx.query<BucketRow>(`select ${BUCKET_COLUMNS} from storage.buckets where id = $1`, [id])).rows[0],
    );
    if (!row) throw storageErrors.noSuchBucket();
    return { status: 200, body: bucketBody(row) };
  }

  private async create(body: Record<string, unknown>, caller: Caller): Promise<Reply> {
    const name = body.name;
    if (typeof name !== "string") throw storageErrors.invalidRequest("body must have required property 'name'");
    const id = typeof body.id === "string" && body.id ? body.id : name;
    if (!VALID_BUCKET_NAME.test(name) || !VALID_BUCKET_NAME.test(id) || name.trim() !== name)
      throw storageErrors.invalidBucketName();
    if (body.public !== undefined && typeof body.public !== "boolean")
      throw storageErrors.invalidRequest("body/public must be boolean");
    const limit = fileSizeLimitOf(body.file_size_limit);
    const types = mimeTypesOf(body.allowed_mime_types);
    const owner = typeof caller.claims.sub === "string" ? caller.claims.sub : null;
    try {
      await this.as(caller, (tx) =>
        tx.query(
          `insert into storage.buckets (id, name, owner, owner_id, public, file_size_limit, allowed_mime_types)
           values ($1, $2, $3::uuid, $3, $4, $5, $6)`,
          [id, name, owner, body.public ?? false, limit ?? null, types ?? null],
        ),
      );
    } catch (e) {
      throw fromDatabase(e, storageErrors.bucketAlreadyExists);
    }
    return { status: 200, body: { name } };
  }

  private async update(id: string, body: Record<string, unknown>, caller: Caller): Promise<Reply> {
    const sets: string[] = [];
    const params: unknown[] = [id];
    if (body.public !== undefined) {
      if (typeof body.public !== "boolean") throw storageErrors.invalidRequest("body/public must be boolean");
      params.push(body.public);
      sets.push(`public = $${params.length}`);
    }
    if (body.file_size_limit !== undefined) {
      params.push(fileSizeLimitOf(body.file_size_limit));
      sets.push(`file_size_limit = $${params.length}`);
    }
    if (body.allowed_mime_types !== undefined) {
      params.push(mimeTypesOf(body.allowed_mime_types));
      sets.push(`allowed_mime_types = $${params.length}`);
    }
    if (sets.length === 0)
      throw storageErrors.invalidRequest(
        "body must have required property 'public', 'file_size_limit' or 'allowed_mime_types'",
      );
    let updated: number;
    try {
      updated = await this.as(caller, async (tx) => {
        const { rows } = await tx.query(
          `update storage.buckets set ${sets.join(", ")}, updated_at = now() where id = $1 returning id`,
          params,
        );
        return rows.length;
      });
    } catch (e) {
      throw fromDatabase(e);
    }
    if (updated === 0) throw storageErrors.noSuchBucket();
    return { status: 200, body: { message: "Successfully updated" } };
  }

  private async remove(id: string, caller: Caller): Promise<Reply> {
    const outcome = await this.db.transaction(async (tx) => {
      // Locked and counted as the server, as Storage does: a bucket with objects stays, whoever asks.
      const { rows: found } = await tx.query("select id from storage.buckets where id = $1 for update", [id]);
      if (!found[0]) return "missing" as const;
      const { rows: used } = await tx.query("select 1 from storage.objects where bucket_id = $1 limit 1", [id]);
      if (used[0]) return "not-empty" as const;
      await actAs(tx, caller, "DELETE");
      const { rows } = await tx.query("delete from storage.buckets where id = $1 returning id", [id]);
      return rows[0] ? ("deleted" as const) : ("missing" as const);
    });
    if (outcome === "missing") throw storageErrors.noSuchBucket();
    if (outcome === "not-empty") throw storageErrors.bucketNotEmpty();
    return { status: 200, body: { message: "Successfully deleted" } };
  }

  private async empty(id: string, caller: Caller): Promise<Reply> {
    if (caller.role !== "service_role") throw storageErrors.accessDenied("Access denied: Invalid role");
    await this.get(id, caller);
    await this.emptyAll(id);
    return { status: 200, body: { message: "Empty bucket has been queued. Completion may take up to an hour." } };
  }
}
