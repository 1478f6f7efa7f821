"use client";

import dynamic from "next/dynamic";
import { WhenIdle } from "./when-idle";

// Page views carry the route with its dynamic segments as placeholders (/blog/[slug]); the Next.js
// build of @vercel/analytics computes that from useParams() on every navigation. If the script cannot
// load, the library logs its own console message (spec §8) and the page carries on. It loads once the
// page is idle, like the install offer, so it never delays the first paint.
const VercelAnalytics = dynamic(() => import("@vercel/analytics/next").then((m) => m.Analytics), { ssr: false });

export function Analytics() {
  return (
    <WhenIdle>
      <VercelAnalytics />
    </WhenIdle>
  );
}
