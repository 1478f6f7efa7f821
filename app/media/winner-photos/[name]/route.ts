import { z } from "zod";
import { imagePathOf, WINNER_PHOTO_BUCKET } from "@/lib/competitions/images";
import { winnerPhotoPublished } from "@/lib/data/winner-stories";
import { defineRoute, type RouteInput } from "@/lib/http/define-route";
import { imageNotFound, privateImageResponse, storedObjectName } from "@/lib/http/stored-image-response";

// A winner's photo (lib/http/stored-image-response.ts), only while it is published: the winner consents and an
// admin has not removed it. The bucket is private, so this route is the only way to the photo, and it is never
// stored by a browser or a CDN: a withdrawn consent stops it here, as on the pages, at the next request, with
// no cached copy left to outlive it (a photo is a few hundred KB, read once per page view).
export const dynamic = "force-dynamic";

async function get({ params }: RouteInput<{ name: string }, undefined>) {
  const objectName = storedObjectName(WINNER_PHOTO_BUCKET, params.name);
  if (!objectName || !(await winnerPhotoPublished(imagePathOf(objectName, WINNER_PHOTO_BUCKET)))) {
    return imageNotFound();
  }
  return privateImageResponse(WINNER_PHOTO_BUCKET, objectName, { browser: "no-store", cdn: "no-store" });
}

export const GET = defineRoute({ kind: "html", params: z.object({ name: z.string() }), notFound: "Not found" }, get);
