// notFound() from a sign-in screen, inside the auth shell.
export { notFoundMetadata as metadata, SegmentNotFound as default } from "@/components/errors/not-found-boundary";
