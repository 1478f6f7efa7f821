"use client";

import dynamic from "next/dynamic";
import { WhenIdle } from "./when-idle";

const InstallOffer = dynamic(() => import("./install-offer").then((m) => m.InstallOffer), { ssr: false });

// The service worker's registration and the install offer, in their own chunk fetched once the page is idle: no
// page's load fetches or runs them. The browser's install prompt, which comes once a page and may come before then,
// is kept for the offer by the document script (lib/document-script.ts).
export function InstallApp() {
  return (
    <WhenIdle>
      <InstallOffer />
    </WhenIdle>
  );
}
