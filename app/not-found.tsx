import type { Metadata } from "next";
import { SiteShell } from "@/components/layout/site-shell";
import { ErrorPage } from "@/components/errors/error-page";
import { BotNotFound, requestIsFromBot } from "@/components/errors/bot-not-found";

export const metadata: Metadata = {
  title: "Page not found",
  description: "We are sorry but this page could not be found.",
  robots: { index: false },
};

// Unknown routes (spec §8: 'Page not found: {path}', status 404).
export default async function NotFound() {
  if (await requestIsFromBot()) return <BotNotFound />;
  return (
    <SiteShell>
      <ErrorPage kind="not-found" reason="route" />
    </SiteShell>
  );
}
