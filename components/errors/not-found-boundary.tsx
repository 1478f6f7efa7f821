import type { Metadata } from "next";
import { ErrorPage } from "./error-page";

// What every app/**/not-found.tsx renders. Next renders each not-found boundary above a page into that page's
// RSC payload (and so into its HTML), whether or not it is shown, and Turbopack gives a top-level route group
// without one of its own a copy of the root one: each boundary is a segment's error page only, inside the shell
// its layout already draws, never a second header and footer (docs/decisions/039).

/**
 * The not-found page's metadata. A dynamic page's generateMetadata answers it too for a parameter it does not know:
 * after a client navigation Next streams the page's own metadata, not the boundary's, so an empty answer would
 * leave the tab titled with the site's name.
 */
export const notFoundMetadata: Metadata = {
  title: "Page not found",
  description: "We are sorry but this page could not be found.",
  robots: { index: false },
};

/** notFound() from a page whose route matched but whose parameter did not (spec §8 'Page Not Found: {path}'). */
export function SegmentNotFound() {
  return <ErrorPage kind="not-found" reason="validation" />;
}
