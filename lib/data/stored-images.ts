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
import {
  CHARITY_PROOF_BUCKET,
  CHOOSE_PROOF,
  PROOF_TOO_LARGE,
  PROOF_TYPES,
  proofNameOf,
  proofPathOf,
  type ProofType,
} from "@/lib/charities/proofs";
import { DbError } from "./errors";

// Competition images, winners' photos and the proofs of charity donations in Supabase Storage, through storage-js as
// the signed-in admin: the bucket's row-level policies (admins at aal2 write) and limits decide, as the SQL
// functions do for everything else. A refusal becomes a DbError with one of the codes the screens already switch on.

/** Every bucket the site stores files in; the public ones are read by name (app/media). */
type StoredBucket = ImageBucket | typeof CHARITY_PROOF_BUCKET;
export type PublicBucket = typeof COMPETITION_IMAGE_BUCKET | typeof CHARITY_PROOF_BUCKET;

/** What a bucket's files are called in its refusals: too large, or not a type it takes. */
type FileWords = { tooLarge: string; wrongType: string };
const IMAGE_WORDS: FileWords = {
  tooLarge: "The image is over 5 MB even after resizing: choose a smaller one",
  wrongType: "Choose a JPEG, PNG or WebP image",
};
const PROOF_WORDS: FileWords = { tooLarge: PROOF_TOO_LARGE, wrongType: CHOOSE_PROOF };

/** Storage's refusal codes (its body's `code`) in the app's codes and words. */
function refusal(error: StorageError, words: FileWords = IMAGE_WORDS): DbError {
  const code = "code" in error ? (error as { code?: string }).code : undefined;
  switch (code) {
    case "AccessDenied":
      return new DbError("admin_required", "Access denied: Admin privileges required", code);
    case "EntityTooLarge":
      return new DbError("invalid_input", words.tooLarge, code);
    case "InvalidMimeType":
      return new DbError("invalid_input", words.wrongType, code);
    default:
      return new DbError("unexpected", `The file store refused the request: ${error.message}`, code ?? null);
  }
}

/**
 * Stores one file (already checked to be `contentType` by its bytes) in `bucket` under a fresh random name with
 * the type's extension, and answers that name. Stored for a year in caches: a name is never reused, so the bytes
 * behind it never change.
 */
async function storeObject(
  bucket: StoredBucket,
  bytes: Uint8Array,
  contentType: string,
  extension: string,
  words: FileWords,
): Promise<string> {
  const supabase = await createClient();
  const name = `${crypto.randomUUID()}.${extension}`;
  const { error } = await supabase.storage
    .from(bucket)
    .upload(name, bytes, { contentType, cacheControl: "31536000", upsert: false });
  if (error) throw refusal(error, words);
  return name;
}

/** Deletes these objects of `bucket`. */
async function removeObjects(bucket: StoredBucket, names: string[]): Promise<void> {
  if (names.length === 0) return;
  const supabase = await createClient();
  const { error } = await supabase.storage.from(bucket).remove(names);
  if (error) throw refusal(error);
}

const present = (name: string | null): name is string => name !== null;

/**
 * Stores one image (already checked to be `type` by its bytes) in `bucket` and answers the site path the
 * competition (or the winner's story) keeps.
 */
export async function storeImage(bucket: ImageBucket, bytes: Uint8Array, type: ImageType): Promise<string> {
  return imagePathOf(await storeObject(bucket, bytes, type, IMAGE_TYPES[type], IMAGE_WORDS), bucket);
}

/** Deletes the stored objects behind these site paths; other paths (files in public/) are left alone. */
export async function removeImages(bucket: ImageBucket, paths: string[]): Promise<void> {
  await removeObjects(bucket, paths.map((path) => objectNameOf(path, bucket)).filter(present));
}

/** Stores a donation's proof (already checked to be `type` by its bytes) and answers the site path it keeps. */
export async function storeCharityProof(bytes: Uint8Array, type: ProofType): Promise<string> {
  return proofPathOf(await storeObject(CHARITY_PROOF_BUCKET, bytes, type, PROOF_TYPES[type], PROOF_WORDS));
}

/** Deletes the proof behind a site path, when it is one. */
export async function removeCharityProof(path: string): Promise<void> {
  await removeObjects(CHARITY_PROOF_BUCKET, [proofNameOf(path)].filter(present));
}

/** A public bucket's URL of an object, which only the site's server fetches (app/media). */
export function publicObjectUrl(bucket: PublicBucket, objectName: string): string {
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
