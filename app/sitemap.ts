import type { MetadataRoute } from "next";
import { docs } from "@/lib/content/docs";
import { posts } from "@/lib/content/posts";
import { canonicalOrigin } from "@/lib/site-url";

// Rendered per request, so the URLs follow the SITE_URL the server runs with, not the one of the build.
export const dynamic = "force-dynamic";

export default function sitemap(): MetadataRoute.Sitemap {
  const origin = canonicalOrigin();
  const url = (path: string) => new URL(path, origin).toString();
  const pages = [
    "/",
    "/competitions",
    "/winners",
    "/transparency",
    "/charities",
    "/labspinner",
    "/pricing",
    "/blog",
  ].map((path) => ({
    url: url(path),
    changeFrequency: "daily" as const,
    priority: path === "/" ? 1 : 0.8,
  }));
  return [
    ...pages,
    ...docs.map((d) => ({ url: url(d.path), changeFrequency: "monthly" as const, priority: 0.6 })),
    ...posts.map((p) => ({
      url: url(p.path),
      lastModified: p.date,
      changeFrequency: "yearly" as const,
      priority: 0.5,
    })),
  ];
}
