"use client";

import { SITE_CSS } from "@/.generated/site-css";

/**
 * The whole stylesheet, written into the page instead of linked, so the first paint needs the document
 * alone (scripts/site-css.mjs says why). A client component on purpose: its module, and so the sheet, is
 * one cached script shared by every page, where a server component would also repeat the sheet in each
 * page's RSC payload.
 */
export function SiteStylesheet() {
  return <style dangerouslySetInnerHTML={{ __html: SITE_CSS }} />;
}
