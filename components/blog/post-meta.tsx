import { formatDate } from "@/lib/format";
import type { Post } from "@/lib/content/posts";

export function PostMeta({ post }: { post: Post }) {
  return (
    <p className="text-sm text-muted-foreground">
      <time dateTime={post.date}>{formatDate(post.date)}</time>
      <span aria-hidden> · </span>
      {post.readingMinutes} min read
      <span aria-hidden> · </span>
      By {post.authors.map((a) => a.name).join(" and ")}
    </p>
  );
}
