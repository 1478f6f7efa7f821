import "server-only";
import {
  COMPETITION_IMAGE_BUCKET,
  imagePathOf,
  objectNameOf,
  WINNER_PHOTO_BUCKET,
  type ImageBucket,
} from "@/lib/competitions/images";
import { publicObjectUrl, readPrivateImage, type PublicBucket } from "@/lib/data/stored-images";

// A stored file (an image, a donation's proof), from its Storage bucket through the site's own origin
// (app/media/<bucket>/[name]): the browser never talks to Supabase (the embedded backend is on loopback; the CSP
// names no backend), and a page keeps the same path whichever backend stores its bytes. Never kept by Next itself
// (which would serve a deleted file for ever): each request asks the bucket; browsers and CDNs keep it as
// `cacheControl` says.

/** The object a route's `[name]` names in `bucket`, or null when it is not one of the bucket's images. */
export const storedObjectName = (bucket: ImageBucket, name: string) => objectNameOf(imagePathOf(name, bucket), bucket);

interface CacheControl {
  browser: string;
  cdn: string;
}

function storedResponse(
  body: ReadableStream<Uint8Array>,
  type: string,
  length: string | null,
  cache: CacheControl,
  headers: Record<string, string> = {},
) {
  return new Response(body, {
    headers: {
      "Content-Type": type,
      ...(length ? { "Content-Length": length } : {}),
      "Cache-Control": cache.browser,
      "CDN-Cache-Control": cache.cdn,
      // The type is the one the bytes were checked to be at upload: a browser must not guess another.
      "X-Content-Type-Options": "nosniff",
      ...headers,
    },
  });
}

/** A media type without its parameters, as compared ("application/pdf; charset=…" is application/pdf). */
const mediaType = (contentType: string | null) => (contentType ?? "").split(";")[0]!.trim().toLowerCase();

/**
 * A public bucket's object, fetched by its public URL, when Storage labels it a type `accepts` takes (anything else
 * in the bucket is not served from the site's origin); `headers` are added to the answer.
 */
export async function publicObjectResponse(
  bucket: PublicBucket,
  objectName: string,
  cacheControl: CacheControl,
  accepts: (type: string) => boolean,
  headers: Record<string, string> = {},
): Promise<Response> {
  const upstream = await fetch(publicObjectUrl(bucket, objectName), { cache: "no-store" });
  const type = upstream.headers.get("content-type") ?? "";
  if (!upstream.ok || !upstream.body || !accepts(mediaType(type))) {
    // Not awaited: cancelling a body that has already arrived can wait for ever under Next's fetch.
    void upstream.body?.cancel().catch(() => undefined);
    return imageNotFound();
  }
  return storedResponse(upstream.body, type, upstream.headers.get("content-length"), cacheControl, headers);
}

const isImage = (type: string) => type.startsWith("image/");

/** A public bucket's image, fetched by its public URL. */
export const publicImageResponse = (
  bucket: typeof COMPETITION_IMAGE_BUCKET,
  objectName: string,
  cacheControl: CacheControl,
): Promise<Response> => publicObjectResponse(bucket, objectName, cacheControl, isImage);

/** A private bucket's image, read on the server with the secret key; the route decides first whether it may be shown. */
export async function privateImageResponse(
  bucket: typeof WINNER_PHOTO_BUCKET,
  objectName: string,
  cacheControl: CacheControl,
): Promise<Response> {
  const image = await readPrivateImage(bucket, objectName);
  if (!image || !isImage(image.type)) return imageNotFound();
  return storedResponse(image.stream(), image.type, String(image.size), cacheControl);
}

/** The answer for a stored file that is not there (or not one the route serves). */
export const imageNotFound = () =>
  new Response("Not found", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=60" },
  });
