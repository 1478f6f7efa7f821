import type { MetadataRoute } from "next";
import { siteConfig } from "@/config/site";

// The installable app: Next serves this as /manifest.webmanifest and links it from
// every page. Colours are the light theme's (app/globals.css: --background, --primary); the browser's
// bar follows the colour mode through the pages' theme-color (components/layout/document.tsx).
export default function manifest(): MetadataRoute.Manifest {
  return {
    id: "/",
    name: `${siteConfig.name} – ${siteConfig.tagline}`,
    short_name: siteConfig.name,
    description: siteConfig.description,
    start_url: "/",
    scope: "/",
    display: "standalone",
    background_color: "#ffffff",
    theme_color: "#15803d",
    lang: "en-GB",
    categories: ["entertainment", "shopping"],
    icons: [
      { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/icons/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
}
