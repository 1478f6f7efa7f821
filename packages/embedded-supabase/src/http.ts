// Small HTTP plumbing shared by the auth and REST surfaces: body reading with a
// size limit, JSON responses, CORS. node:http only, so the embedded backend has
// no framework to keep up to date.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { PGlite } from "@electric-sql/pglite";

/** Bodies above this are refused with 413 before they are parsed. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * CORS: only the site's own origin may read answers (server.ts decides, origins.ts). Supabase's
 * gateway answers `*`, but its keys are secret per project; these are published, so a page on any
 * other origin a developer visits must not read the mail catcher or call the admin API.
 */
const CORS_HEADERS: Record<string, string> = {
  Vary: "Origin",
  "Access-Control-Allow-Methods": "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS",
  "Access-Control-Allow-Headers":
    "authorization, apikey, content-type, accept, accept-profile, content-profile, prefer, range, x-client-info, x-supabase-api-version, x-retry-count, x-upsert, x-metadata, cache-control",
  "Access-Control-Expose-Headers": "Content-Range, X-Total-Count, Link, X-Supabase-Api-Version",
  "Access-Control-Max-Age": "86400",
};

export type Headers = Record<string, string>;

/** What a route handler returns; the server turns it into the HTTP response. */
/** A route under /_embedded/, answered only with the secret key; an app adds its own (its test fixtures, its outbox). */
export type EmbeddedRoute = (request: {
  db: PGlite;
  url: URL;
  /** The parsed JSON body, read when asked for. */
  body(): Promise<unknown>;
}) => Promise<Reply>;

export interface Reply {
  status: number;
  /** A value to JSON-encode, a string already encoded as JSON, or bytes (a Storage object) sent as they are. Undefined sends no body. */
  body?: unknown;
  /** True when body is a ready JSON string (RPC results come out of Postgres as text). */
  raw?: boolean;
  headers?: Headers;
}

export class BodyTooLargeError extends Error {}
export class MalformedBodyError extends Error {}
export class UnsupportedMediaTypeError extends Error {
  constructor(readonly contentType: string) {
    super(`Content-Type not acceptable: ${contentType}`);
  }
}

/**
 * Reads the whole body, refusing more than `limit` bytes (checked on the header and while streaming):
 * MAX_BODY_BYTES for JSON, the Storage upload limit for files.
 */
export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > limit) {
    req.resume(); // drain so the socket can answer
    throw new BodyTooLargeError();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      req.resume();
      throw new BodyTooLargeError();
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function mediaType(req: IncomingMessage): string {
  return (req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
}

/**
 * Parses a request body as JSON (or, when allowed, an HTML form, which GoTrue's
 * /token also takes). An empty body is `{}`: supabase-js sends none on logout.
 */
export function parseBody(req: IncomingMessage, raw: Buffer, options: { allowForm?: boolean } = {}): unknown {
  const text = raw.toString("utf8");
  if (text.trim() === "") return {};
  const type = mediaType(req);
  if (options.allowForm && type === "application/x-www-form-urlencoded") {
    const form = Object.fromEntries(new URLSearchParams(text));
    if (Object.values(form).some(holdsNul)) throw new MalformedBodyError(NUL_MESSAGE);
    return form;
  }
  if (type !== "" && type !== "application/json" && !type.endsWith("+json")) {
    throw new UnsupportedMediaTypeError(type);
  }
  try {
    return JSON.parse(text, (_key, value: unknown) => {
      if (typeof value === "string" && holdsNul(value)) throw new MalformedBodyError(NUL_MESSAGE);
      return value;
    });
  } catch (e) {
    throw e instanceof MalformedBodyError ? e : new MalformedBodyError((e as Error).message);
  }
}

// PostgreSQL text cannot hold a NUL character, so a value with one could only fail later, as a 500.
const NUL_MESSAGE = "Text values may not contain the NUL character (\\u0000)";
const holdsNul = (value: string) => value.includes("\u0000");

/** Sends a reply; `corsOrigin` is the request's Origin when it may read the answer. */
export function send(res: ServerResponse, reply: Reply, method: string, corsOrigin?: string): void {
  const headers: Headers = {
    ...CORS_HEADERS,
    ...(corsOrigin ? { "Access-Control-Allow-Origin": corsOrigin } : {}),
    ...reply.headers,
  };
  let payload: string | Buffer | undefined;
  if (Buffer.isBuffer(reply.body) && reply.status !== 204 && reply.status !== 304) {
    payload = reply.body;
    headers["Content-Length"] = String(payload.length);
  } else if (reply.body !== undefined && reply.status !== 204 && reply.status !== 304) {
    payload = reply.raw ? String(reply.body) : JSON.stringify(reply.body);
    headers["Content-Type"] ??= "application/json; charset=utf-8";
    headers["Content-Length"] = String(Buffer.byteLength(payload));
  }
  res.writeHead(reply.status, headers);
  res.end(method === "HEAD" ? undefined : payload);
}

export function preflight(): Reply {
  return { status: 204 };
}

/** Lower-cased single header value (Node joins repeated headers with ", "). */
export function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}
