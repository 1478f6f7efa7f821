import type { Metadata } from "next";

export const metadata: Metadata = { title: "Error page test", robots: { index: false } };

// Cached like the public pages (/, /competitions, a competition's page): static, regenerated at most every
// few seconds, so a failure here happens where theirs would, in a blocking regeneration.
export const revalidate = 2;

/**
 * A server component that fails, like the notification and confetti test pages: it shows what a visitor
 * meets when a page breaks on the server (the site's error page, 'Something went wrong', with a reference),
 * and the tests use it to keep it that way. The build's prerender gets a placeholder, so the build passes.
 */
export default function ErrorTestPage() {
  if (process.env.NEXT_PHASE === "phase-production-build") return <p>Error page test</p>;
  throw new Error("Error page test: this page always fails on the server");
}
