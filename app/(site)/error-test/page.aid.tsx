import type { Metadata } from "next";
import { connection } from "next/server";

export const metadata: Metadata = { title: "Error page test", robots: { index: false } };

/**
 * A server component that always fails: it shows what a visitor meets when a page breaks on the server (the
 * site's error page, 'Something went wrong', with a reference), and the tests use it to keep it that way. Rendered
 * per request, so it fails every time (a cached page that fails to regenerate keeps serving its last good version
 * instead). A test aid (lib/test-aids.ts): not in a deployment's build.
 */
export default async function ErrorTestPage(): Promise<never> {
  await connection();
  throw new Error("Error page test: this page always fails on the server");
}
