"use client";

import dynamic from "next/dynamic";

// The service worker's registration and the install offer, in their own chunk fetched after the page has
// hydrated: no page's first load carries them. Not deferred to idle like the analytics, because the
// browser's `beforeinstallprompt` comes once per page and would be missed.
export const InstallApp = dynamic(() => import("./install-offer").then((m) => m.InstallOffer), { ssr: false });
