import type { MetadataRoute } from "next";
import { siteConfig } from "@/config/site";
import { docs } from "@/lib/content/docs";
import { posts } from "@/lib/content/posts";

export default function sitemap(): MetadataRoute.Sitemap {
  const url = (path: string) => new URL(path, siteConfig.url).toString();
  const pages = ["/", "/competitions", "/winners", "/labspinner", "/pricing", "/blog"].map((path) => ({
    url: url(path),
    changeFrequency: "daily" as const,
    priority: path === "/" ? 1 : 0.8,
  }));
  return [
    ...pages,
    ...docs.map((d) => ({ url: url(d.path), changeFrequency: "monthly" as const, priority: 0.6 })),
    ...posts.map((p) => ({ url: url(p.path), lastModified: p.date, changeFrequency: "yearly" as const, priority: 0.5 })),
  ];
}
