import "server-only";
import {
  COMPETITION_IMAGE_BUCKET,
  imagePathOf,
  objectNameOf,
  WINNER_PHOTO_BUCKET,
  type ImageBucket,
} from "@/lib/competitions/images";
import { readPrivateImage, storedImageUrl } from "@/lib/data/stored-images";

// A stored image, from its Storage bucket through the site's own origin (app/media/<bucket>/[name]): the browser
// never talks to Supabase (the embedded backend is on loopback; the CSP names no backend), and a page keeps the
// same path whichever backend stores its bytes. Never kept by Next itself (which would serve a deleted image for
// ever): each request asks the bucket; browsers and CDNs keep it as `cacheControl` says.

/** The object a route's `[name]` names in `bucket`, or null when it is not one of the bucket's images. */
export const storedObjectName = (bucket: ImageBucket, name: string) => objectNameOf(imagePathOf(name, bucket), bucket);

interface CacheControl {
  browser: string;
  cdn: string;
}

function imageResponse(body: ReadableStream<Uint8Array>, type: string, length: string | null, cache: CacheControl) {
  return new Response(body, {
    headers: {
      "Content-Type": type,
      ...(length ? { "Content-Length": length } : {}),
      "Cache-Control": cache.browser,
      "CDN-Cache-Control": cache.cdn,
    },
  });
}

/** A public bucket's image, fetched by its public URL. */
export async function publicImageResponse(
  bucket: typeof COMPETITION_IMAGE_BUCKET,
  objectName: string,
  cacheControl: CacheControl,
): Promise<Response> {
  const upstream = await fetch(storedImageUrl(bucket, objectName), { cache: "no-store" });
  const type = upstream.headers.get("content-type") ?? "";
  if (!upstream.ok || !upstream.body || !type.startsWith("image/")) {
    // Not awaited: cancelling a body that has already arrived can wait for ever under Next's fetch.
    void upstream.body?.cancel().catch(() => undefined);
    return imageNotFound();
  }
  return imageResponse(upstream.body, type, upstream.headers.get("content-length"), cacheControl);
}

/** A private bucket's image, read on the server with the secret key; the route decides first whether it may be shown. */
export async function privateImageResponse(
  bucket: typeof WINNER_PHOTO_BUCKET,
  objectName: string,
  cacheControl: CacheControl,
): Promise<Response> {
  const image = await readPrivateImage(bucket, objectName);
  if (!image || !image.type.startsWith("image/")) return imageNotFound();
  return imageResponse(image.stream(), image.type, String(image.size), cacheControl);
}

export const imageNotFound = () =>
  new Response("Not found", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=60" },
  });
