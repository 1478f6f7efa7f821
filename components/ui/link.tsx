"use client";

import NextLink from "next/link";
import { useState, type ComponentProps } from "react";

type LinkProps = ComponentProps<typeof NextLink>;

/**
 * next/link that prefetches when the visitor reaches for a link (pointer over it, keyboard focus, a touch), not
 * when it scrolls into view. By default every link in the viewport is prefetched: a public page view here sent
 * 17–23 prefetch requests, more signed in (header, footer, cards, the account and console menus), each through
 * the proxy (a session check and an account read when signed in) and a server render, and on Vercel each is a
 * function call whose `_rsc` key misses the cache. On intent, a page view costs one request per link the visitor
 * actually points at, and a click still finds the page on its way (Next's "Hover-triggered prefetch" guide).
 * `prefetch={false}` still turns it off altogether; `prefetch={true}` prefetches the whole page once intent is
 * shown.
 */
export function Link({ prefetch, onMouseEnter, onFocus, onTouchStart, ...props }: LinkProps) {
  const [intent, setIntent] = useState(false);
  return (
    <NextLink
      {...props}
      prefetch={prefetch === false || !intent ? false : (prefetch ?? null)}
      onMouseEnter={(event) => {
        setIntent(true);
        onMouseEnter?.(event);
      }}
      onFocus={(event) => {
        setIntent(true);
        onFocus?.(event);
      }}
      onTouchStart={(event) => {
        setIntent(true);
        onTouchStart?.(event);
      }}
    />
  );
}
