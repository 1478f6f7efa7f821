import type { Metadata } from "next";
import { ErrorPage } from "@/components/errors/error-page";

export const metadata: Metadata = {
  title: "Page not found",
  description: "We are sorry but this page could not be found.",
  robots: { index: false },
};

// /docs/{slug} with no such page: the route matched but its parameter did not (spec §8 'Page Not Found: {path}').
export default function DocsNotFound() {
  return <ErrorPage kind="not-found" reason="validation" />;
}
