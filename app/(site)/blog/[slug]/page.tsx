import type { Metadata } from "next";
import { siteCardImage } from "@/config/og";
import { notFoundMetadata } from "@/components/errors/not-found-boundary";
import Image from "next/image";
import { notFound } from "next/navigation";
import { MDXContent } from "@content-collections/mdx/react";
import { findPost, posts } from "@/lib/content/posts";
import { mdxComponents } from "@/components/docs/mdx-components";
import { Badge } from "@/components/ui/badge";
import { PostMeta } from "@/components/blog/post-meta";
import { initials } from "@/lib/utils";
import { BackLink } from "@/components/ui/back-link";

type Props = { params: Promise<{ slug: string }> };

export function generateStaticParams() {
  return posts.map((p) => ({ slug: p.slug }));
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const post = findPost((await params).slug);
  if (!post) return notFoundMetadata;
  return {
    title: post.seo.title ?? post.title,
    description: post.seo.description ?? post.description,
    alternates: { canonical: post.path },
    authors: post.authors.map((a) => ({ name: a.name })),
    openGraph: {
      type: "article",
      title: post.title,
      description: post.description,
      url: post.path,
      publishedTime: post.date,
      images: [siteCardImage],
    },
  };
}

export default async function PostPage({ params }: Props) {
  const post = findPost((await params).slug);
  if (!post) notFound();
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
      <BackLink href="/blog">All posts</BackLink>
      <header className="mt-6">
        {post.badge ? <Badge>{post.badge.label}</Badge> : null}
        <h1 className="mt-3 text-4xl font-extrabold tracking-tight text-balance">{post.title}</h1>
        <p className="mt-3 text-lg text-muted-foreground">{post.description}</p>
        <div className="mt-4">
          <PostMeta post={post} />
        </div>
        <ul aria-label="Authors" className="mt-5 flex flex-wrap gap-4">
          {post.authors.map((a) => (
            <li key={a.name} className="flex items-center gap-2">
              <span
                aria-hidden
                className="inline-flex size-9 items-center justify-center rounded-full bg-primary-soft text-sm font-semibold text-primary-text"
              >
                {initials(a.name, null)}
              </span>
              <span className="text-sm">
                <span className="block font-medium">{a.name}</span>
                {a.role ? <span className="block text-muted-foreground">{a.role}</span> : null}
              </span>
            </li>
          ))}
        </ul>
      </header>
      <Image
        src={post.image.src}
        alt={post.image.alt}
        width={post.image.width}
        height={post.image.height}
        unoptimized
        preload
        className="mt-8 aspect-[1200/630] w-full rounded-2xl border border-border object-cover"
      />
      <div className="prose mt-10">
        <MDXContent code={post.body} components={mdxComponents} />
      </div>
    </article>
  );
}
