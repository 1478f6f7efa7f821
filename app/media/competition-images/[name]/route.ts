import { z } from "zod";
import { COMPETITION_IMAGE_BUCKET } from "@/lib/competitions/images";
import { defineRoute, type RouteInput } from "@/lib/http/define-route";
import { imageNotFound, publicImageResponse, storedObjectName } from "@/lib/http/stored-image-response";

// A competition image (lib/http/stored-image-response.ts). Names are random and never reused, so browsers keep
// the answer for a year; a CDN for a day, so an image an admin deleted stops being served within a day.
export const dynamic = "force-dynamic";

async function get({ params }: RouteInput<{ name: string }, undefined>) {
  const objectName = storedObjectName(COMPETITION_IMAGE_BUCKET, params.name);
  if (!objectName) return imageNotFound();
  return publicImageResponse(COMPETITION_IMAGE_BUCKET, objectName, {
    browser: "public, max-age=31536000, immutable",
    cdn: "public, max-age=86400",
  });
}

export const GET = defineRoute({ kind: "html", params: z.object({ name: z.string() }), notFound: "Not found" }, get);
