import type { Metadata, Viewport } from "next";
import { titleTemplate } from "@/config/site";
import { Document, documentMetadata, documentViewport } from "@/components/layout/document";
import { SiteShell } from "@/components/layout/site-shell";
import { ErrorPage } from "@/components/errors/error-page";
import { BotNotFound, requestIsFromBot } from "@/components/errors/bot-not-found";

export const metadata: Metadata = {
  ...documentMetadata,
  // Rendered without the root layout, so its title template is applied here.
  title: titleTemplate.replace("%s", "Page not found"),
  description: "We are sorry but this page could not be found.",
  robots: { index: false },
};
export const viewport: Viewport = documentViewport;

// Unknown routes (spec §8: 'Page not found: {path}', status 404), rendered per request without the
// root layout, so it can tell crawlers from people (headers()). The not-found.tsx boundaries are
// rendered with every page, so they must not read the request, or no page could be static.
export default async function GlobalNotFound() {
  return (
    <Document>
      {(await requestIsFromBot()) ? (
        <BotNotFound />
      ) : (
        <SiteShell>
          <ErrorPage kind="not-found" reason="route" />
        </SiteShell>
      )}
    </Document>
  );
}
