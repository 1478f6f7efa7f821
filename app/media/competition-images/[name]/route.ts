import { imagePathOf, objectNameOf } from "@/lib/competitions/images";
import { competitionImageUrl } from "@/lib/data/competition-images";
import { z } from "zod";
import { defineRoute, type RouteInput } from "@/lib/http/define-route";

// A competition image, from the Storage bucket through the site's own origin: the browser never talks
// to Supabase (the embedded backend is on loopback; the CSP names no backend), and a competition keeps
// the same path whichever backend stores its bytes. Names are random and never reused, so browsers keep
// the answer for a year; a CDN for a day, so an image an admin deleted stops being served within a day.
// Never kept by Next itself (which would serve a deleted image for ever): each request asks the bucket.
export const dynamic = "force-dynamic";

async function get({ params }: RouteInput<{ name: string }, undefined>) {
  const objectName = objectNameOf(imagePathOf(params.name));
  if (!objectName) return notFound();
  const upstream = await fetch(competitionImageUrl(objectName), { cache: "no-store" });
  const type = upstream.headers.get("content-type") ?? "";
  if (!upstream.ok || !upstream.body || !type.startsWith("image/")) {
    // Not awaited: cancelling a body that has already arrived can wait for ever under Next's fetch.
    void upstream.body?.cancel().catch(() => undefined);
    return notFound();
  }
  const length = upstream.headers.get("content-length");
  return new Response(upstream.body, {
    headers: {
      "Content-Type": type,
      ...(length ? { "Content-Length": length } : {}),
      "Cache-Control": "public, max-age=31536000, immutable",
      "CDN-Cache-Control": "public, max-age=86400",
    },
  });
}

export const GET = defineRoute({ kind: "html", params: z.object({ name: z.string() }), notFound: "Not found" }, get);

const notFound = () =>
  new Response("Not found", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=60" },
  });
