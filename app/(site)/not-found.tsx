// notFound() from a page of the default layout (e.g. a competition that does not exist): the route
// matched but its parameter did not (spec §8 'Page Not Found: {path}'). Rendered inside SiteShell.
export { notFoundMetadata as metadata, SegmentNotFound as default } from "@/components/errors/not-found-boundary";
