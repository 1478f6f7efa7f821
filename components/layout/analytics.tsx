"use client";

// Page views carry the route with its dynamic segments as placeholders (/blog/[slug]); the Next.js
// build of @vercel/analytics computes that from useParams() on every navigation. If the script cannot
// load, the library logs its own console message (spec §8) and the page carries on.
export { Analytics } from "@vercel/analytics/next";
