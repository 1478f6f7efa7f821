import { allPosts } from "content-collections";

export type Post = (typeof allPosts)[number];

// Stored in stem order; the blog lists newest first.
export const posts: Post[] = [...allPosts].sort((a, b) => (a.stem < b.stem ? -1 : 1));
export const postsNewestFirst: Post[] = [...posts].sort(
  (a, b) => b.date.localeCompare(a.date) || (a.stem < b.stem ? 1 : -1),
);

export function findPost(slug: string): Post | undefined {
  return posts.find((p) => p.slug === slug);
}
