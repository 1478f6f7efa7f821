"use client";

import { usePathname } from "next/navigation";

/** The spec §8 message for the path that was asked for ("Page not found: /x"). */
export function RequestedPath({ prefix }: { prefix: string }) {
  const pathname = usePathname();
  return (
    <>
      {prefix}
      {pathname}
    </>
  );
}
