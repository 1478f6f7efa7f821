"use client";

import { SITE_CSS } from "@/.generated/site-css";

/**
 * The sheet as a script, for the few documents the browser renders itself (see SiteStylesheet): a chunk of its own,
 * fetched only then.
 */
export function SiteStylesheetText() {
  return (
    <style href="site-css" precedence="default">
      {SITE_CSS}
    </style>
  );
}
