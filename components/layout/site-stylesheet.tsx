"use client";

import dynamic from "next/dynamic";

/**
 * The sheet's text, for the server's render only. Next compiles `typeof window` to "object" in the browser's
 * bundle, so there the condition is false, the `require` is dropped and the 58 kB string never reaches it: the
 * sheet travels once, in the document. (In development the browser reads it too, so a changed class shows without
 * a reload.) A `require`, not `import()`: the server must have the text in the first render, without suspending.
 */
const serverCss: string | null =
  typeof window === "undefined" || process.env.NODE_ENV === "development"
    ? // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
      (require("@/.generated/site-css") as typeof import("@/.generated/site-css")).SITE_CSS
    : null;

const SiteStylesheetText = dynamic(() => import("./site-stylesheet-text").then((m) => m.SiteStylesheetText));

/** Whether the document the server sent carries the sheet (React keeps that element: it never removes a resource). */
const documentHasSheet = () => document.querySelector('style[data-href="site-css"]') !== null;

/**
 * The whole stylesheet, written into the page instead of linked, so the first paint needs the document alone
 * (scripts/site-css.mjs says why). `href` and `precedence` make it one of React's hoisted style resources (as Next's
 * own stylesheet links are): React writes it into <head>, and the browser keeps it. A few documents are rendered
 * by the browser alone (the server sends an empty body for a prerendered route's not-found page, and a root
 * layout error replaces the document): then the text comes in its own chunk.
 */
export function SiteStylesheet() {
  if (serverCss !== null) {
    return (
      <style href="site-css" precedence="default">
        {serverCss}
      </style>
    );
  }
  return documentHasSheet() ? null : <SiteStylesheetText />;
}
