// Competition images and winners' photos: the rules the console's upload
// areas, their server actions and the image routes share. The buckets' own limits (supabase/migrations/
// *_competition_images.sql, *_winner_stories.sql) are the last word; these say the same so a person hears
// about a wrong file before it is sent.

/**
 * The Storage buckets, made by the migrations: admin write, the same limits, listed by admins only. Competition
 * images are public by name; winner photos are private, read only by the site's server (app/media).
 */
export const COMPETITION_IMAGE_BUCKET = "competition-images";
export const WINNER_PHOTO_BUCKET = "winner-photos";
export type ImageBucket = typeof COMPETITION_IMAGE_BUCKET | typeof WINNER_PHOTO_BUCKET;

/** The buckets' file_size_limit: what one stored image may weigh. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/**
 * What the upload area takes from a person's device. Larger than the bucket's limit on purpose: the
 * browser shrinks the picture before it is sent, so a 12 MB photo from a phone becomes a few hundred KB.
 */
export const MAX_SOURCE_BYTES = 25 * 1024 * 1024;

/** The longest side of a stored image, in pixels: sharp on a wide screen's gallery, small to send. */
export const MAX_IMAGE_SIDE = 1600;

export const IMAGE_TYPES = { "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp" } as const;
export type ImageType = keyof typeof IMAGE_TYPES;

export const isImageType = (type: string): type is ImageType => Object.hasOwn(IMAGE_TYPES, type);

/**
 * Where the site serves a stored image: its own path (app/media/<bucket>), never the backend's URL,
 * because the browser never talks to Supabase (docs/architecture.md) and the images keep working
 * whichever backend the server uses. The competition (or the winner's story) stores this path.
 */
const pathPrefix = (bucket: ImageBucket) => `/media/${bucket}/`;

/** A stored object's name: a random UUID and the type's extension, nothing a person typed. */
const OBJECT_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(?:jpg|png|webp)$/;

export const imagePathOf = (objectName: string, bucket: ImageBucket = COMPETITION_IMAGE_BUCKET) =>
  `${pathPrefix(bucket)}${objectName}`;

/** The object a site path names, or null when the path is not one of the bucket's images. */
export function objectNameOf(imagePath: string, bucket: ImageBucket = COMPETITION_IMAGE_BUCKET): string | null {
  const prefix = pathPrefix(bucket);
  if (!imagePath.startsWith(prefix)) return null;
  const name = imagePath.slice(prefix.length);
  return OBJECT_NAME.test(name) ? name : null;
}

/** The first bytes of each accepted type: a file is what its bytes say, whatever its name or label. */
export function sniffImageType(bytes: Uint8Array): ImageType | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0x52, 0x49, 0x46, 0x46) && String.fromCharCode(...bytes.slice(8, 12)) === "WEBP") return "image/webp";
  return null;
}
