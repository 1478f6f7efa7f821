// Shrinks a chosen picture in the browser before it is uploaded (the console's upload area): the longest
// side to MAX_IMAGE_SIDE, re-encoded as WebP (JPEG where the browser cannot write WebP). Re-encoding
// every picture also drops what a camera writes into the file (location, device), which a public prize
// image should not carry.
import { MAX_IMAGE_SIDE } from "./images";

const QUALITY = 0.85;

/** The size to draw at: the longest side at most `max`, the proportions kept, never enlarged. */
export function fittedSize(width: number, height: number, max = MAX_IMAGE_SIDE): { width: number; height: number } {
  const scale = Math.min(1, max / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

const encode = (canvas: HTMLCanvasElement, type: string) =>
  new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, type, QUALITY));

/** The resized image, or null when the browser cannot read the file as a picture. */
export async function resizeImage(file: Blob): Promise<Blob | null> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    return null;
  }
  const size = fittedSize(bitmap.width, bitmap.height);
  const canvas = document.createElement("canvas");
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext("2d");
  if (!context) return null;
  context.drawImage(bitmap, 0, 0, size.width, size.height);
  bitmap.close();
  const webp = await encode(canvas, "image/webp");
  // A browser that cannot write WebP hands back PNG instead (far larger for a photo): ask for JPEG then.
  return webp?.type === "image/webp" ? webp : encode(canvas, "image/jpeg");
}
