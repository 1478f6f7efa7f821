import { createClient } from "@supabase/supabase-js";
import { NextResponse } from "next/server";
import { z } from "zod";
import { isBot } from "@/lib/bots";
import { findDoc } from "@/lib/content/docs";
import { findPost } from "@/lib/content/posts";
import { DbError } from "@/lib/data/errors";
import { callRpcWith } from "@/lib/data/rpc";
import { supabaseEnv } from "@/lib/env";
import type { Database } from "@/lib/supabase/database.types";

// Crawlers get a bare 404, never the error page (spec §2). Unknown routes are app/global-not-found.tsx, which reads
// the request; an unknown doc, blog post or competition matches a cached page whose not-found boundary must stay
// static, so the proxy answers a crawler for those paths itself. People never pay for the look-up: it runs only
// for a crawler on one of these paths (proxy.ts's matcher lets only likely crawlers' requests for them through).
// No "server-only" here: proxy.ts imports it.

// search.json is the competitions' search index, a route of its own.
const COMPETITION = /^\/competitions\/(?!search\.json\/?$)([^/]+)(?:\/(?:draw|entries))?\/?$/;
const BLOG_POST = /^\/blog\/([^/]+)\/?$/;
const DOC = /^\/docs(?:\/(.*?))?\/?$/;

const segment = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
};

/** Whether the published competition `slug` exists, read as anon; a failed read counts as existing (no false 404). */
async function competitionExists(slug: string): Promise<boolean> {
  const { url, publishableKey } = supabaseEnv();
  const anon = createClient<Database>(url, publishableKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
  try {
    await callRpcWith(anon, "get_competition", { p_slug: slug }, z.unknown());
    return true;
  } catch (e) {
    return !(e instanceof DbError && e.code === "competition_not_found");
  }
}

/** True when `path` names a doc, blog post or competition that does not exist. */
export async function namesMissingContent(path: string): Promise<boolean> {
  const doc = DOC.exec(path);
  if (doc) {
    const slug = doc[1] ? doc[1].split("/").map(segment) : [];
    return slug.some((s) => s === null) || !findDoc(slug as string[]);
  }
  const post = BLOG_POST.exec(path);
  if (post) {
    const slug = segment(post[1]);
    return slug === null || !findPost(slug);
  }
  const competition = COMPETITION.exec(path);
  if (competition) {
    const slug = segment(competition[1]);
    return slug === null || !(await competitionExists(slug));
  }
  return false;
}

/** The bare 404 a crawler gets for a doc, blog post or competition that does not exist; null for anyone else. */
export async function botNotFound(path: string, userAgent: string | null): Promise<NextResponse | null> {
  if (!isBot(userAgent) || !(await namesMissingContent(path))) return null;
  return new NextResponse(
    '<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>404 Not Found</title></head><body><h1>404 Not Found</h1></body></html>',
    { status: 404, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } },
  );
}
