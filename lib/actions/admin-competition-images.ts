"use server";

import { z } from "zod";
import { IMAGE_TYPES, MAX_IMAGE_BYTES, sniffImageType } from "@/lib/competitions/images";
import { removeCompetitionImages, storeCompetitionImage } from "@/lib/data/competition-images";
import { defineAction } from "./define-action";
import { fail, ok } from "./result";

// The competition form's upload area (components/admin/competitions/image-upload.tsx): one image per
// call, already resized in the browser; the Storage bucket checks the admin, size and type again.

const CHOOSE_IMAGE = "Choose a JPEG, PNG or WebP image";

const uploadSchema = z.object({
  image: z
    .file(CHOOSE_IMAGE)
    .min(1, CHOOSE_IMAGE)
    .max(MAX_IMAGE_BYTES, "The image is over 5 MB even after resizing: choose a smaller one")
    .mime(Object.keys(IMAGE_TYPES), CHOOSE_IMAGE),
});

/** Stores an image and answers the path the competition will keep. */
export const uploadCompetitionImageAction = defineAction({ schema: uploadSchema, role: "admin" }, async ({ image }) => {
  const bytes = new Uint8Array(await image.arrayBuffer());
  // The declared type is the browser's say-so; the bytes decide what is stored and served.
  const type = sniffImageType(bytes);
  if (!type) return fail(CHOOSE_IMAGE, { code: "invalid_input", fieldErrors: { image: [CHOOSE_IMAGE] } });
  return ok({ path: await storeCompetitionImage(bytes, type) });
});

/**
 * Deletes an image uploaded on the form and removed before it was saved (nothing refers to it). Saved
 * images that a save drops are deleted by updateCompetitionAction once the save has succeeded.
 */
export const discardCompetitionImageAction = defineAction(
  { schema: z.object({ path: z.string().max(1000) }), role: "admin" },
  async ({ path }) => {
    await removeCompetitionImages([path]);
    return ok(undefined);
  },
);
