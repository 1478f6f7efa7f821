import { defineRoute } from "@/lib/http/define-route";

// The service worker (docs/decisions/040), served from the site's root so
// its scope is the whole site. It does one thing: when a page cannot be reached (offline), it shows
// /offline. It caches only that page and the styles and scripts it loads, never a signed-in page, an
// API answer or anything sent with a session: every other request goes to the network untouched.
// Static, rendered once per build: the build's version in its text makes each deploy's worker differ by
// a byte, so browsers install it and its activation drops the previous deploy's cache.
export const dynamic = "force-static";

const VERSION = process.env.VERCEL_GIT_COMMIT_SHA ?? new Date().toISOString();

const worker = `// LabCash service worker, ${VERSION}
const CACHE = ${JSON.stringify(`labcash-offline-${VERSION}`)};
const OFFLINE = "/offline";
// Web push: the push and notification-click handlers live in their own file.
importScripts("/sw-push.js");

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      const page = await fetch(OFFLINE, { cache: "reload", credentials: "omit" });
      if (!page.ok) throw new Error("offline page: " + page.status);
      const html = await page.clone().text();
      // The offline page's own styles, scripts and fonts (Next's hashed /_next/static files).
      const assets = [...new Set([...html.matchAll(/(?:href|src)="(\\/_next\\/static\\/[^"]+)"/g)].map((m) => m[1]))];
      await cache.put(OFFLINE, page);
      await cache.addAll(assets);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // The network always; the offline page only when the network cannot be reached at all.
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE, { cacheName: CACHE })));
    return;
  }
  // The offline page's assets, from the cache only when the network fails.
  if (new URL(request.url).pathname.startsWith("/_next/static/")) {
    event.respondWith(
      fetch(request).catch(async () => (await caches.match(request, { cacheName: CACHE })) ?? Response.error()),
    );
  }
});
`;

function get() {
  return new Response(worker, {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      // Browsers check a worker for updates on navigations; this makes every check reach the server.
      "Cache-Control": "public, max-age=0, must-revalidate",
    },
  });
}

export const GET = defineRoute({ kind: "json" }, get);
