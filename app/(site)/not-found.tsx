import type { Metadata } from "next";
import { ErrorPage } from "@/components/errors/error-page";

export const metadata: Metadata = {
  title: "Page not found",
  description: "We are sorry but this page could not be found.",
  robots: { index: false },
};

// notFound() from a page of the default layout (e.g. a competition that does not exist): the route
// matched but its parameter did not (spec §8 'Page Not Found: {path}'). Rendered inside SiteShell.
export default function SiteNotFound() {
  return <ErrorPage kind="not-found" reason="validation" />;
}
