// notFound() from an account page, inside the account's dashboard shell.
export { notFoundMetadata as metadata, SegmentNotFound as default } from "@/components/errors/not-found-boundary";
