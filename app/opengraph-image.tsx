import { ImageResponse } from "next/og";
import { ogCanvas, ogSize } from "@/config/og";
import { siteConfig } from "@/config/site";

export const alt = `${siteConfig.name} – ${siteConfig.tagline}`;
export const size = ogSize;
export const contentType = "image/png";

// The default social card for every page (system font; no network fonts at build).
export default function OpengraphImage() {
  return new ImageResponse(
    <div style={ogCanvas("center")}>
      <div style={{ display: "flex", alignItems: "center", gap: 24 }}>
        <div
          style={{
            width: 96,
            height: 96,
            borderRadius: 24,
            background: "white",
            display: "flex",
            alignItems: "center",
            justifyContent: "center",
            color: "#15803d",
            fontSize: 64,
            fontWeight: 800,
          }}
        >
          L
        </div>
        <div style={{ fontSize: 72, fontWeight: 800 }}>{siteConfig.name}</div>
      </div>
      <div style={{ marginTop: 40, fontSize: 56, fontWeight: 700 }}>{siteConfig.tagline}</div>
      <div style={{ marginTop: 24, fontSize: 32, opacity: 0.85 }}>
        Prize draws for tech. Tickets from £0.25. Every draw verifiable.
      </div>
    </div>,
    size,
  );
}
