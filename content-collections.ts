import { defineCollection, defineConfig, defineSingleton } from "@content-collections/core";
import { compileMDX } from "@content-collections/mdx";
import remarkGfm from "remark-gfm";
import { z } from "zod";
import { rehypeHeadingIds } from "./lib/content/rehype-heading-ids";
import { searchSections, tableOfContents } from "./lib/content/markdown-outline";

// Content collections (spec §3). Every document gets the common fields: id, title, description,
// body (compiled MDX), extension, meta, navigation, path, seo and stem. File names may start with
// an ordering prefix ("03.credits.mdx"); it orders the stem and is dropped from the path.
// A file that does not match its schema fails the build with the file name and the field.

const seo = z.object({ title: z.string().optional(), description: z.string().optional() }).default({});
const navigation = z
  .union([z.boolean(), z.object({ title: z.string().optional(), icon: z.string().optional() })])
  .default(true);

const stripOrder = (segment: string) => segment.replace(/^\d+\./, "");

function common(
  collection: string,
  meta: { path: string; extension: string },
  data: { title: string; description: string },
) {
  const stem = `${collection}/${meta.path}`;
  const segments = meta.path
    .split("/")
    .map(stripOrder)
    .filter((s) => s !== "index");
  return {
    id: `${collection}/${meta.path}.${meta.extension}`,
    stem,
    extension: meta.extension,
    segments,
    description: data.description,
  };
}

const docs = defineCollection({
  name: "docs",
  directory: "content/docs",
  include: "**/*.mdx",
  schema: z.object({
    title: z.string().min(1),
    description: z.string().min(1),
    navigation,
    seo,
    meta: z.record(z.string(), z.json()).default({}),
    content: z.string(),
  }),
  transform: async (doc, context) => {
    const base = common("docs", doc._meta, doc);
    const path = ["/docs", ...base.segments].join("/");
    const body = await compileMDX(context, doc, { remarkPlugins: [remarkGfm], rehypePlugins: [rehypeHeadingIds] });
    return {
      id: base.id,
      stem: base.stem,
      extension: base.extension,
      path,
      slug: base.segments,
      title: doc.title,
      description: doc.description,
      navigation: doc.navigation,
      seo: doc.seo,
      meta: doc.meta,
      body,
      toc: tableOfContents(doc.content),
      sections: searchSections(path, doc.title, doc.description, doc.content),
    };
  },
});

const author = z.object({ name: z.string(), role: z.string().optional(), avatar: z.string().optional() });
const image = z.object({
  src: z.string().startsWith("/"),
  alt: z.string().min(1),
  width: z.number().default(1200),
  height: z.number().default(630),
});

const posts = defineCollection({
  name: "posts",
  directory: "content/posts",
  include: "*.mdx",
  schema: z.object({
    title: z.string().min(1),
    description: z.string().min(1),
    date: z.iso.date(),
    authors: z.array(author).min(1),
    badge: z.object({ label: z.string() }).optional(),
    image,
    navigation,
    seo,
    meta: z.record(z.string(), z.json()).default({}),
    content: z.string(),
  }),
  transform: async (doc, context) => {
    const base = common("posts", doc._meta, doc);
    const slug = base.segments.join("/");
    const body = await compileMDX(context, doc, { remarkPlugins: [remarkGfm], rehypePlugins: [rehypeHeadingIds] });
    return {
      id: base.id,
      stem: base.stem,
      extension: base.extension,
      path: `/blog/${slug}`,
      slug,
      title: doc.title,
      description: doc.description,
      date: doc.date,
      authors: doc.authors,
      badge: doc.badge ?? null,
      image: doc.image,
      navigation: doc.navigation,
      seo: doc.seo,
      meta: doc.meta,
      body,
      readingMinutes: Math.max(1, Math.round(doc.content.split(/\s+/).length / 220)),
    };
  },
});

// YAML pages: the body is structured data rather than prose.
const pageFields = {
  title: z.string(),
  description: z.string(),
  seo,
  navigation,
  meta: z.record(z.string(), z.json()).default({}),
};

function pageTransform(name: string, path: string) {
  return <T extends { _meta: { path: string; extension: string } }>(doc: T) => ({
    ...doc,
    id: `${name}/${doc._meta.path}.${doc._meta.extension}`,
    stem: doc._meta.path,
    extension: doc._meta.extension,
    path,
  });
}

const link = z.object({ label: z.string(), to: z.string(), icon: z.string().optional() });

// The spec's `index` collection. Named indexPage because a collection called "index" would be
// generated as .content-collections/generated/index.js and overwrite the generated barrel file.
const indexPage = defineSingleton({
  name: "indexPage",
  filePath: "content/index.yml",
  parser: "yaml",
  transform: pageTransform("indexPage", "/"),
  schema: z.object({
    ...pageFields,
    hero: z.object({
      eyebrow: z.string(),
      title: z.string(),
      highlight: z.string(),
      description: z.string(),
      links: z.array(link).min(1),
    }),
    sections: z.array(
      z.object({
        id: z.string(),
        title: z.string(),
        description: z.string(),
        steps: z.array(z.object({ title: z.string(), description: z.string(), icon: z.string() })).default([]),
      }),
    ),
    features: z.object({
      title: z.string(),
      description: z.string(),
      items: z.array(z.object({ title: z.string(), description: z.string(), icon: z.string() })),
    }),
    testimonials: z.object({
      title: z.string(),
      description: z.string(),
      items: z.array(z.object({ quote: z.string(), name: z.string(), detail: z.string() })),
    }),
    cta: z.object({ title: z.string(), description: z.string(), links: z.array(link) }),
  }),
});

const pricing = defineSingleton({
  name: "pricing",
  filePath: "content/pricing.yml",
  parser: "yaml",
  transform: pageTransform("pricing", "/pricing"),
  schema: z.object({
    ...pageFields,
    plans: z.array(
      z.object({
        title: z.string(),
        amount: z.number().positive(),
        bonusPercent: z.number().min(0),
        highlight: z.boolean().default(false),
        description: z.string(),
      }),
    ),
    tiers: z.array(
      z.object({ label: z.string(), from: z.number(), to: z.number().nullable(), bonusPercent: z.number() }),
    ),
    limits: z.object({ min: z.number(), max: z.number() }),
    faq: z.array(z.object({ question: z.string(), answer: z.string() })),
    logos: z.array(z.object({ name: z.string(), note: z.string() })).default([]),
  }),
});

const blog = defineSingleton({
  name: "blog",
  filePath: "content/blog.yml",
  parser: "yaml",
  transform: pageTransform("blog", "/blog"),
  schema: z.object({
    ...pageFields,
  }),
});

const competitions = defineSingleton({
  name: "competitions",
  filePath: "content/competitions.yml",
  parser: "yaml",
  transform: pageTransform("competitions", "/competitions"),
  schema: z.object({
    ...pageFields,
    items: z.array(z.object({ title: z.string(), description: z.string() })),
  }),
});

// Free-form data (spec: "info", data with no fixed fields).
const info = defineCollection({
  name: "info",
  directory: "content/info",
  include: "*.yml",
  parser: "yaml",
  schema: z.record(z.string(), z.json()),
});

export default defineConfig({ content: [docs, posts, indexPage, pricing, blog, competitions, info] });
