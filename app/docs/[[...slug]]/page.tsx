import type { Metadata } from "next";
import { siteCardImage } from "@/config/og";
import { notFoundMetadata } from "@/components/errors/not-found-boundary";
import { Link } from "@/components/ui/link";
import { notFound } from "next/navigation";
import { MDXContent } from "@content-collections/mdx/react";
import { ChevronLeft, ChevronRight } from "lucide-react";
import { breadcrumbs, docs, findDoc, neighbours } from "@/lib/content/docs";
import { mdxComponents } from "@/components/docs/mdx-components";
import { TableOfContents } from "@/components/docs/table-of-contents";
import { HelpAssistant } from "@/components/assistant/help-assistant";

type Props = { params: Promise<{ slug?: string[] }> };

export function generateStaticParams() {
  return docs.map((d) => ({ slug: d.slug }));
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const doc = findDoc((await params).slug);
  if (!doc) return notFoundMetadata;
  return {
    title: doc.seo.title ?? doc.title,
    description: doc.seo.description ?? doc.description,
    alternates: { canonical: doc.path },
    openGraph: {
      title: doc.title,
      description: doc.description,
      url: doc.path,
      type: "article",
      images: [siteCardImage],
    },
  };
}

export default async function DocPage({ params }: Props) {
  const doc = findDoc((await params).slug);
  if (!doc) notFound();
  const { prev, next } = neighbours(doc);
  const trail = breadcrumbs(doc);

  return (
    <div className="xl:grid xl:grid-cols-[minmax(0,1fr)_14rem] xl:gap-10">
      <article className="min-w-0">
        <nav aria-label="Breadcrumb" className="mb-4 text-sm text-muted-foreground">
          <ol className="flex flex-wrap items-center gap-1.5">
            {trail.map((crumb, i) => (
              <li key={`${crumb.label}-${i}`} className="flex items-center gap-1.5">
                {i > 0 ? <ChevronRight aria-hidden className="size-3.5" /> : null}
                {crumb.href && i < trail.length - 1 ? (
                  <Link href={crumb.href} className="hover:text-foreground">
                    {crumb.label}
                  </Link>
                ) : (
                  <span aria-current={i === trail.length - 1 ? "page" : undefined}>{crumb.label}</span>
                )}
              </li>
            ))}
          </ol>
        </nav>
        <header className="mb-8 border-b border-border pb-6">
          <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{doc.title}</h1>
          <p className="mt-3 text-lg text-muted-foreground">{doc.description}</p>
        </header>
        {doc.toc.length ? (
          <details className="mb-8 rounded-lg border border-border p-4 xl:hidden">
            <summary className="cursor-pointer text-sm font-semibold">On this page</summary>
            <ul className="mt-3 space-y-1.5 text-sm">
              {doc.toc.map((e) => (
                <li key={e.id} className={e.depth === 3 ? "pl-3" : undefined}>
                  <a href={`#${e.id}`} className="text-muted-foreground hover:text-foreground">
                    {e.text}
                  </a>
                </li>
              ))}
            </ul>
          </details>
        ) : null}
        <div className="prose">
          <MDXContent code={doc.body} components={mdxComponents} />
        </div>
        <HelpAssistant />
        <nav
          aria-label="Previous and next pages"
          className="mt-14 grid gap-4 border-t border-border pt-8 sm:grid-cols-2"
        >
          {prev ? (
            <Link
              href={prev.path}
              rel="prev"
              className="group rounded-lg border border-border p-4 hover:border-primary"
            >
              <span className="flex items-center gap-1 text-sm text-muted-foreground">
                <ChevronLeft aria-hidden className="size-4" />
                Previous
              </span>
              <span className="mt-1 block font-semibold group-hover:text-primary-text">{prev.title}</span>
            </Link>
          ) : (
            <span />
          )}
          {next ? (
            <Link
              href={next.path}
              rel="next"
              className="group rounded-lg border border-border p-4 text-right hover:border-primary"
            >
              <span className="flex items-center justify-end gap-1 text-sm text-muted-foreground">
                Next
                <ChevronRight aria-hidden className="size-4" />
              </span>
              <span className="mt-1 block font-semibold group-hover:text-primary-text">{next.title}</span>
            </Link>
          ) : null}
        </nav>
      </article>
      <aside aria-label="Page outline" className="hidden xl:block">
        <div className="sticky top-24">
          <TableOfContents entries={doc.toc} />
        </div>
      </aside>
    </div>
  );
}
