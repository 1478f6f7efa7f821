import "server-only";
import type { StorageError } from "@supabase/storage-js";
import { createAdminClient } from "@/lib/supabase/admin";
import { createPublicClient } from "@/lib/supabase/public";
import { createClient } from "@/lib/supabase/server";
import {
  COMPETITION_IMAGE_BUCKET,
  IMAGE_TYPES,
  imagePathOf,
  objectNameOf,
  WINNER_PHOTO_BUCKET,
  type ImageBucket,
  type ImageType,
} from "@/lib/competitions/images";
import { DbError } from "./errors";

// Competition images and winners' photos in Supabase Storage, through storage-js as the signed-in admin: the bucket's
// row-level policies (admins at aal2 write) and limits decide, as the SQL functions do for everything
// else. A refusal becomes a DbError with one of the codes the screens already switch on.

/** Storage's refusal codes (its body's `code`) in the app's codes and words. */
function refusal(error: StorageError): DbError {
  const code = "code" in error ? (error as { code?: string }).code : undefined;
  switch (code) {
    case "AccessDenied":
      return new DbError("admin_required", "Access denied: Admin privileges required", code);
    case "EntityTooLarge":
      return new DbError("invalid_input", "The image is over 5 MB even after resizing: choose a smaller one", code);
    case "InvalidMimeType":
      return new DbError("invalid_input", "Choose a JPEG, PNG or WebP image", code);
    default:
      return new DbError("unexpected", `The image store refused the request: ${error.message}`, code ?? null);
  }
}

/**
 * Stores one image (already checked to be `type` by its bytes) in `bucket` under a fresh random name and
 * answers the site path the competition (or the winner's story) keeps. Stored for a year in caches: a name
 * is never reused, so the bytes behind it never change.
 */
export async function storeImage(bucket: ImageBucket, bytes: Uint8Array, type: ImageType): Promise<string> {
  const supabase = await createClient();
  const name = `${crypto.randomUUID()}.${IMAGE_TYPES[type]}`;
  const { error } = await supabase.storage
    .from(bucket)
    .upload(name, bytes, { contentType: type, cacheControl: "31536000", upsert: false });
  if (error) throw refusal(error);
  return imagePathOf(name, bucket);
}

/** Deletes the stored objects behind these site paths; other paths (files in public/) are left alone. */
export async function removeImages(bucket: ImageBucket, paths: string[]): Promise<void> {
  const names = paths.map((path) => objectNameOf(path, bucket)).filter((name): name is string => name !== null);
  if (names.length === 0) return;
  const supabase = await createClient();
  const { error } = await supabase.storage.from(bucket).remove(names);
  if (error) throw refusal(error);
}

/** A public bucket's URL of an object, which only the site's server fetches (app/media). */
export function storedImageUrl(bucket: typeof COMPETITION_IMAGE_BUCKET, objectName: string): string {
  return createPublicClient().storage.from(bucket).getPublicUrl(objectName).data.publicUrl;
}

/**
 * A private bucket's object, read on the server with the secret key (no URL to it exists outside the server),
 * or null when Storage has no such object.
 */
export async function readPrivateImage(bucket: typeof WINNER_PHOTO_BUCKET, objectName: string): Promise<Blob | null> {
  const { data, error } = await createAdminClient().storage.from(bucket).download(objectName);
  if (!error) return data;
  const code = "statusCode" in error ? (error as { statusCode?: string }).statusCode : undefined;
  if (code === "404") return null;
  throw refusal(error);
}
