// notFound() from an admin page (a user or complaint that does not exist), inside the admin's dashboard shell.
export { notFoundMetadata as metadata, SegmentNotFound as default } from "@/components/errors/not-found-boundary";
