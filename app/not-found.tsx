import { ErrorPage } from "@/components/errors/error-page";

export { notFoundMetadata as metadata } from "@/components/errors/not-found-boundary";

// notFound() from a segment with no boundary of its own, rendered in the root layout alone. Every route group,
// docs and admin have their own (components/errors/not-found-boundary.tsx says why this one draws no site shell);
// unknown routes are app/global-not-found.tsx. Static, as every not-found boundary must be: no request reads.
export default function NotFound() {
  return (
    <main id="main" className="flex min-h-dvh flex-col justify-center">
      <ErrorPage kind="not-found" reason="route" />
    </main>
  );
}
