import { z } from "zod";
import { imagePathOf, WINNER_PHOTO_BUCKET } from "@/lib/competitions/images";
import { winnerPhotoPublished } from "@/lib/data/winner-stories";
import { defineRoute, type RouteInput } from "@/lib/http/define-route";
import { imageNotFound, storedImageResponse, storedObjectName } from "@/lib/http/stored-image-response";

// A winner's photo (lib/http/stored-image-response.ts), only while it is published: the winner consents and an
// admin has not removed it. A withdrawn consent stops it here as well as on the pages, so it is kept minutes,
// not a year.
export const dynamic = "force-dynamic";

async function get({ params }: RouteInput<{ name: string }, undefined>) {
  const objectName = storedObjectName(WINNER_PHOTO_BUCKET, params.name);
  if (!objectName || !(await winnerPhotoPublished(imagePathOf(objectName, WINNER_PHOTO_BUCKET)))) {
    return imageNotFound();
  }
  return storedImageResponse(WINNER_PHOTO_BUCKET, objectName, {
    browser: "public, max-age=300",
    cdn: "public, max-age=300",
  });
}

export const GET = defineRoute({ kind: "html", params: z.object({ name: z.string() }), notFound: "Not found" }, get);
