// Storage's errors, as hosted Storage shapes them (its src/internal/errors): the body is
// `{statusCode, code, error, message}` with the status as text, and the response itself is 400 for every
// refusal (500 for a failure); storage-js reads the body's statusCode.
import type { Reply } from "./http";

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
  bucketAlreadyExists: () =>
    new StorageHttpError(409, "BucketAlreadyExists", "The resource already exists", "Duplicate"),
  bucketNotEmpty: () => new StorageHttpError(409, "ResourceNotEmpty", "The bucket you tried to delete is not empty"),
  invalidBucketName: () => new StorageHttpError(400, "InvalidBucketName", "Bucket name invalid", "Invalid Input"),
  invalidFileSizeLimit: () =>
    new StorageHttpError(400, "InvalidRequest", "Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B"),
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

interface PgError {
  code?: string;
  message?: string;
}

/** A database refusal in Storage's words: a policy's refusal is AccessDenied, a taken name Duplicate. */
export function fromDatabase(e: unknown, duplicate = storageErrors.keyAlreadyExists): unknown {
  const pg = e as PgError;
  if (pg.code === "42501")
    return storageErrors.accessDenied(pg.message?.replace(/ for table "(objects|buckets)"$/, "") ?? "");
  if (pg.code === "23505") return duplicate();
  return e;
}
