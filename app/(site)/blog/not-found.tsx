// /blog/{slug} with no such post (spec §8 'Page Not Found: {path}').
export { notFoundMetadata as metadata, SegmentNotFound as default } from "@/components/errors/not-found-boundary";
