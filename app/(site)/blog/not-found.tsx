import type { Metadata } from "next";
import { ErrorPage } from "@/components/errors/error-page";

export const metadata: Metadata = {
  title: "Page not found",
  description: "We are sorry but this page could not be found.",
  robots: { index: false },
};

// /blog/{slug} with no such post (spec §8 'Page Not Found: {path}').
export default function BlogNotFound() {
  return <ErrorPage kind="not-found" reason="validation" />;
}
