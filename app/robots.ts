import type { MetadataRoute } from "next";
import { siteConfig } from "@/config/site";

export default function robots(): MetadataRoute.Robots {
  return {
    rules: {
      userAgent: "*",
      allow: "/",
      disallow: ["/account", "/admin", "/api/", "/auth/", "/logout", "/pending-approval", "/notifications-test", "/confetti-test", "/purchase-success", "/payment/"],
    },
    sitemap: new URL("/sitemap.xml", siteConfig.url).toString(),
  };
}
