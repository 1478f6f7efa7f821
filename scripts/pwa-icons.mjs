#!/usr/bin/env node
// Draws the installable app's PNG icons (app/manifest.ts) from the logo (public/icon.svg, the same drawing
// as components/layout/logo.tsx) with sharp, which Next already installs for its image optimiser. Run it
// again after changing the logo: `node scripts/pwa-icons.mjs`; the PNGs are committed.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const logo = readFileSync(path.join(root, "public/icon.svg"), "utf8").trim();
// The logo's marks without its rounded tile, to draw on a full-bleed square for the maskable and Apple icons.
const marks = logo
  .replace(/^<svg[^>]*>/, "")
  .replace(/<\/svg>$/, "")
  .replace(/<rect[^>]*\/>/, "");
const tile = logo.match(/<rect[^>]*fill="([^"]+)"/)[1];

// Maskable icons are cropped to a circle of 80% of their width by some launchers: the marks sit inside it.
const fullBleed = (scale) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="${tile}"/>` +
  `<g transform="translate(32 32) scale(${scale}) translate(-32 -32)">${marks}</g></svg>`;

const icons = [
  { file: "public/icons/icon-192.png", svg: logo, size: 192 },
  { file: "public/icons/icon-512.png", svg: logo, size: 512 },
  { file: "public/icons/icon-maskable-512.png", svg: fullBleed(0.7), size: 512 },
  // iOS rounds the corners itself and shows transparency as black: a full-bleed square.
  { file: "public/apple-touch-icon.png", svg: fullBleed(0.85), size: 180 },
];

for (const { file, svg, size } of icons) {
  await sharp(Buffer.from(svg), { density: (72 * size) / 64 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(path.join(root, file));
  console.log(`${file} (${size}×${size})`);
}
