// The social cards' canvas (Next's ImageResponse, system font): the site's default and the live draw's share it.
export const ogSize = { width: 1200, height: 630 };

export const ogCanvas = (justifyContent: "center" | "space-between") =>
  ({
    width: "100%",
    height: "100%",
    display: "flex",
    flexDirection: "column",
    justifyContent,
    padding: 80,
    background: "linear-gradient(135deg, #052e16 0%, #15803d 100%)",
    color: "white",
  }) as const;

/**
 * The site's default card (app/opengraph-image.tsx), for a page that sets Open Graph fields of its own: Next replaces
 * a parent's `openGraph` whole, the file's image with it, so such a page names the image again.
 */
export const siteCardImage = { url: "/opengraph-image", ...ogSize };
