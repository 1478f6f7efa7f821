import type { Metadata } from "next";
import Image from "next/image";
import { Link } from "@/components/ui/link";
import { blog } from "content-collections";
import { postsNewestFirst } from "@/lib/content/posts";
import { Badge } from "@/components/ui/badge";
import { PostMeta } from "@/components/blog/post-meta";

export const metadata: Metadata = {
  title: blog.title,
  description: blog.description,
  alternates: { canonical: "/blog" },
};

export default function BlogPage() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-14 sm:px-6">
      <header className="max-w-2xl">
        <h1 className="text-4xl font-extrabold tracking-tight">{blog.title}</h1>
        <p className="mt-3 text-lg text-muted-foreground">{blog.description}</p>
      </header>
      <ul className="mt-12 grid gap-8 md:grid-cols-2">
        {postsNewestFirst.map((post, i) => (
          <li key={post.slug}>
            <article className="group relative flex h-full flex-col overflow-hidden rounded-2xl border border-border">
              <Image
                src={post.image.src}
                alt={post.image.alt}
                width={post.image.width}
                height={post.image.height}
                unoptimized
                preload={i < 2}
                className="aspect-[1200/630] w-full object-cover"
              />
              <div className="flex flex-1 flex-col gap-3 p-6">
                {post.badge ? <Badge className="self-start">{post.badge.label}</Badge> : null}
                <h2 className="text-xl font-semibold">
                  <Link href={post.path} className="group-hover:text-primary-text after:absolute after:inset-0">
                    {post.title}
                  </Link>
                </h2>
                <p className="text-muted-foreground">{post.description}</p>
                <div className="mt-auto">
                  <PostMeta post={post} />
                </div>
              </div>
            </article>
          </li>
        ))}
      </ul>
    </div>
  );
}
