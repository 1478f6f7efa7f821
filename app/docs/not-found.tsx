// /docs/{slug} with no such page: the route matched but its parameter did not (spec §8 'Page Not Found: {path}').
export { notFoundMetadata as metadata, SegmentNotFound as default } from "@/components/errors/not-found-boundary";
