import "server-only";
import { imagePathOf, objectNameOf, type ImageBucket } from "@/lib/competitions/images";
import { storedImageUrl } from "@/lib/data/stored-images";

// A stored image, from its Storage bucket through the site's own origin (app/media/<bucket>/[name]): the browser
// never talks to Supabase (the embedded backend is on loopback; the CSP names no backend), and a page keeps the
// same path whichever backend stores its bytes. Never kept by Next itself (which would serve a deleted image for
// ever): each request asks the bucket; browsers and CDNs keep it as `cacheControl` says.

/** The object a route's `[name]` names in `bucket`, or null when it is not one of the bucket's images. */
export const storedObjectName = (bucket: ImageBucket, name: string) => objectNameOf(imagePathOf(name, bucket), bucket);

export async function storedImageResponse(
  bucket: ImageBucket,
  objectName: string,
  cacheControl: { browser: string; cdn: string },
): Promise<Response> {
  const upstream = await fetch(storedImageUrl(bucket, objectName), { cache: "no-store" });
  const type = upstream.headers.get("content-type") ?? "";
  if (!upstream.ok || !upstream.body || !type.startsWith("image/")) {
    // Not awaited: cancelling a body that has already arrived can wait for ever under Next's fetch.
    void upstream.body?.cancel().catch(() => undefined);
    return imageNotFound();
  }
  const length = upstream.headers.get("content-length");
  return new Response(upstream.body, {
    headers: {
      "Content-Type": type,
      ...(length ? { "Content-Length": length } : {}),
      "Cache-Control": cacheControl.browser,
      "CDN-Cache-Control": cacheControl.cdn,
    },
  });
}

export const imageNotFound = () =>
  new Response("Not found", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=60" },
  });
