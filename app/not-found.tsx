import type { Metadata } from "next";
import { SiteShell } from "@/components/layout/site-shell";
import { ErrorPage } from "@/components/errors/error-page";

export const metadata: Metadata = {
  title: "Page not found",
  description: "We are sorry but this page could not be found.",
  robots: { index: false },
};

// notFound() outside the site, docs and blog segments (unknown routes are app/global-not-found.tsx).
// Static, as every not-found boundary must be (they render with each page): no request reads.
export default function NotFound() {
  return (
    <SiteShell>
      <ErrorPage kind="not-found" reason="route" />
    </SiteShell>
  );
}
