"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { revalidateWinnerPages } from "@/lib/cache/public-pages";
import { sniffImageType, WINNER_PHOTO_BUCKET } from "@/lib/competitions/images";
import { CHOOSE_IMAGE, uploadedImage } from "@/lib/competitions/image-upload-schema";
import { removeImages, storeImage } from "@/lib/data/stored-images";
import { DbError } from "@/lib/data/errors";
import { adminRecordStoryConsent, adminRemoveStory, adminSetStory, setMyStoryConsent } from "@/lib/data/winner-stories";
import { log } from "@/lib/observability/log";
import { formCheckbox } from "./action";
import { defineAction } from "./define-action";
import { fail, ok } from "./result";

// Winners with photos: the winner's consent on their prize page, and the console's record of
// consent given another way and the photo and quote it publishes. Each change re-renders the cached pages that
// show it, so a withdrawn consent is gone from /winners and the competition page on the next request.

const drawId = z.uuid({ error: "That prize could not be found" });

/** The winner gives or withdraws consent to publish their photo and quote. */
export const setMyStoryConsentAction = defineAction(
  { schema: z.object({ drawId, consent: formCheckbox }), role: "user" },
  async ({ drawId, consent }) => {
    await setMyStoryConsent(drawId, consent);
    revalidateWinnerPages();
    refresh();
    return ok(
      undefined,
      consent ? "Saved: we may publish your photo and quote." : "Saved: your photo and quote will not be published.",
    );
  },
);

/** An admin records consent the winner gave (or withdrew) another way, saying how. */
export const recordStoryConsentAction = defineAction(
  {
    schema: z.object({
      drawId,
      consent: z.enum(["given", "withdrawn"], { error: "Choose whether the winner consents" }),
      note: z.string().trim().min(1, "Say how the winner told us").max(500, "Keep the note to 500 characters"),
    }),
    role: "admin",
  },
  async ({ drawId, consent, note }) => {
    await adminRecordStoryConsent(drawId, consent === "given", note);
    revalidateWinnerPages();
    refresh();
    return ok(undefined, consent === "given" ? "Consent recorded." : "Withdrawal recorded.");
  },
);

const storySchema = z
  .object({
    drawId,
    /** A new photo, resized in the browser; absent keeps `currentPhoto`. */
    photo: uploadedImage.optional(),
    currentPhoto: z.string().max(200).prefault(""),
    photoAlt: z.string().trim().max(200, "Keep the description to 200 characters").prefault(""),
    quote: z.string().trim().max(280, "Keep the quote to 280 characters").prefault(""),
  })
  .superRefine((v, ctx) => {
    if ((v.photo || v.currentPhoto) && !v.photoAlt) {
      ctx.addIssue({ code: "custom", path: ["photoAlt"], message: "Describe the photo for people who cannot see it" });
    }
    if (!v.photo && !v.currentPhoto && !v.quote) {
      ctx.addIssue({ code: "custom", path: ["quote"], message: "Add a photo or a quote" });
    }
  });

/**
 * Publishes (or replaces) the winner's photo and quote. A new photo is stored first and deleted again if SQL
 * refuses (no consent); the photo it replaces is deleted once the save has succeeded.
 */
export const saveWinnerStoryAction = defineAction(
  { schema: storySchema, role: "admin" },
  async ({ drawId, photo, currentPhoto, photoAlt, quote }) => {
    let stored: string | null = null;
    if (photo) {
      const bytes = new Uint8Array(await photo.arrayBuffer());
      // The declared type is the browser's say-so; the bytes decide what is stored and served.
      const type = sniffImageType(bytes);
      if (!type) return fail(CHOOSE_IMAGE, { code: "invalid_input", fieldErrors: { photo: [CHOOSE_IMAGE] } });
      stored = await storeImage(WINNER_PHOTO_BUCKET, bytes, type);
    }
    let saved;
    try {
      saved = await adminSetStory({ drawId, photo: stored ?? (currentPhoto || null), photoAlt, quote });
    } catch (e) {
      if (stored) await discardPhoto(stored);
      throw e;
    }
    if (saved.previous_photo) await discardPhoto(saved.previous_photo);
    revalidateWinnerPages();
    refresh();
    return ok(undefined, "Published.");
  },
);

/** Removes the winner's photo and quote (also after a withdrawal), and the photo from the bucket. */
export const removeWinnerStoryAction = defineAction(
  { schema: z.object({ drawId }), role: "admin" },
  async ({ drawId }) => {
    const removed = await adminRemoveStory(drawId);
    if (removed.previous_photo) await discardPhoto(removed.previous_photo);
    revalidateWinnerPages();
    refresh();
    return ok(undefined, "Removed.");
  },
);

/** A photo nothing shows any more; a failed delete leaves an unused file, logged, not shown. */
async function discardPhoto(path: string): Promise<void> {
  try {
    await removeImages(WINNER_PHOTO_BUCKET, [path]);
  } catch (e) {
    if (!(e instanceof DbError)) throw e;
    log("error", "winner_photo_not_deleted", { path, error: e });
  }
}
