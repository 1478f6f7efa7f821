import { getImageProps } from "next/image";
import { preload } from "react-dom";

/**
 * A prize's picture as next/image renders it, on a plain <img>: the same markup as its component without its client
 * code (about 5 kB compressed in the first load of every page with cards; docs/decisions/039). Stored pictures are
 * already WebP at most 1,600 px wide (shrunk in the admin's browser) and the demo's are SVG, so they are served
 * as they are. The page's first picture is what the page waits for (its largest paint), so it loads at once,
 * first, and is preloaded from the head.
 */
export function CardImage({ src, first }: { src: string; first: boolean }) {
  const { props } = getImageProps({
    src,
    alt: "",
    width: 800,
    height: 600,
    unoptimized: true,
    loading: first ? "eager" : undefined,
    fetchPriority: first ? "high" : undefined,
    className: "size-full object-cover",
  });
  if (first) preload(props.src, { as: "image", fetchPriority: "high" });
  // eslint-disable-next-line @next/next/no-img-element -- next/image's own props, from getImageProps
  return <img {...props} alt="" />;
}
