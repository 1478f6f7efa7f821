import { describe, expect, it } from "vitest";
import { imagePathOf, objectNameOf, sniffImageType } from "@/lib/competitions/images";
import { fittedSize } from "@/lib/competitions/resize-image";

const NAME = "0b836298-d83f-469b-acb2-0b9753afa529.webp";

describe("image paths", () => {
  it("names only the bucket's own objects: a random UUID and an image extension", () => {
    expect(imagePathOf(NAME)).toBe(`/media/competition-images/${NAME}`);
    expect(objectNameOf(`/media/competition-images/${NAME}`)).toBe(NAME);
    for (const path of [
      "/competitions/steam-deck-oled.svg",
      "https://cdn.example/x.webp",
      `/media/competition-images/../${NAME}`,
      `/media/competition-images/x/${NAME}`,
      "/media/competition-images/0B836298-D83F-469B-ACB2-0B9753AFA529.webp",
      "/media/competition-images/0b836298-d83f-469b-acb2-0b9753afa529.gif",
    ]) {
      expect(objectNameOf(path), path).toBeNull();
    }
  });
});

describe("sniffImageType", () => {
  it("reads JPEG, PNG and WebP from their first bytes, whatever a file claims", () => {
    expect(sniffImageType(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
    expect(sniffImageType(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe("image/png");
    expect(sniffImageType(new TextEncoder().encode("RIFF\u0000\u0000\u0000\u0000WEBPVP8 "))).toBe("image/webp");
    expect(sniffImageType(new TextEncoder().encode("RIFF\u0000\u0000\u0000\u0000WAVEfmt "))).toBeNull();
    expect(sniffImageType(new TextEncoder().encode("GIF89a"))).toBeNull();
    expect(sniffImageType(new TextEncoder().encode("<svg xmlns="))).toBeNull();
    expect(sniffImageType(new Uint8Array())).toBeNull();
  });
});

describe("fittedSize", () => {
  it("brings the longest side to 1600 px, keeps the proportions and never enlarges", () => {
    expect(fittedSize(4000, 3000)).toEqual({ width: 1600, height: 1200 });
    expect(fittedSize(900, 1800)).toEqual({ width: 800, height: 1600 });
    expect(fittedSize(1200, 900)).toEqual({ width: 1200, height: 900 });
    expect(fittedSize(10_000, 3)).toEqual({ width: 1600, height: 1 });
  });
});
