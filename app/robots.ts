import type { MetadataRoute } from "next";
import { canonicalOrigin } from "@/lib/site-url";

// Rendered per request, like sitemap.xml, so its address follows the SITE_URL the server runs with.
export const dynamic = "force-dynamic";

export default function robots(): MetadataRoute.Robots {
  return {
    rules: {
      userAgent: "*",
      allow: "/",
      disallow: [
        "/account",
        "/admin",
        "/api/",
        "/auth/",
        "/logout",
        "/pending-approval",
        "/notifications-test",
        "/confetti-test",
        "/purchase-success",
        "/payment/",
      ],
    },
    sitemap: new URL("/sitemap.xml", canonicalOrigin()).toString(),
  };
}
