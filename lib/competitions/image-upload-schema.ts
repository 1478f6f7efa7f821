import { z } from "zod";
import { IMAGE_TYPES, MAX_IMAGE_BYTES } from "./images";

// The server actions' check of an uploaded picture (competition images and winners' photos), beside images.ts
// rather than in it, so the upload areas in the browser do not load zod for it.

export const CHOOSE_IMAGE = "Choose a JPEG, PNG or WebP image";

/** One picture as the browser sent it (already resized); its bytes are checked again before storing. */
export const uploadedImage = z
  .file(CHOOSE_IMAGE)
  .min(1, CHOOSE_IMAGE)
  .max(MAX_IMAGE_BYTES, "The image is over 5 MB even after resizing: choose a smaller one")
  .mime(Object.keys(IMAGE_TYPES), CHOOSE_IMAGE);
