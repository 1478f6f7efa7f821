"use server";

import { z } from "zod";
import { COMPETITION_IMAGE_BUCKET, sniffImageType } from "@/lib/competitions/images";
import { CHOOSE_IMAGE, uploadedImage } from "@/lib/competitions/image-upload-schema";
import { removeImages, storeImage } from "@/lib/data/stored-images";
import { defineAction } from "./define-action";
import { fail, ok } from "./result";

// The competition form's upload area (components/admin/competitions/image-upload.tsx): one image per
// call, already resized in the browser; the Storage bucket checks the admin, size and type again.

const uploadSchema = z.object({ image: uploadedImage });

/** Stores an image and answers the path the competition will keep. */
export const uploadCompetitionImageAction = defineAction({ schema: uploadSchema, role: "admin" }, async ({ image }) => {
  const bytes = new Uint8Array(await image.arrayBuffer());
  // The declared type is the browser's say-so; the bytes decide what is stored and served.
  const type = sniffImageType(bytes);
  if (!type) return fail(CHOOSE_IMAGE, { code: "invalid_input", fieldErrors: { image: [CHOOSE_IMAGE] } });
  return ok({ path: await storeImage(COMPETITION_IMAGE_BUCKET, bytes, type) });
});

/**
 * Deletes an image uploaded on the form and removed before it was saved (nothing refers to it). Saved
 * images that a save drops are deleted by updateCompetitionAction once the save has succeeded.
 */
export const discardCompetitionImageAction = defineAction(
  { schema: z.object({ path: z.string().max(1000) }), role: "admin" },
  async ({ path }) => {
    await removeImages(COMPETITION_IMAGE_BUCKET, [path]);
    return ok(undefined);
  },
);
