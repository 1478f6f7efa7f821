// Web push for LabCash's service worker: the site's worker (app/sw.js/route.ts) runs `importScripts("/sw-push.js")`.
// The cron sends { title, body, url } (lib/push/deliver.ts); a click opens that page of the site, focusing a
// LabCash tab when one is open.
self.addEventListener("push", (event) => {
  let message = { title: "LabCash", body: "", url: "/account/notifications" };
  try {
    message = { ...message, ...event.data.json() };
  } catch {
    // A push without a JSON body still says something happened; the centre has the details.
  }
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: message.body,
      icon: "/icons/icon-192.png",
      data: { url: message.url },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url ?? "/account/notifications", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
      // Focus first, while the click still allows it; a tab this worker does not control cannot be navigated
      // (navigate rejects), so that click opens a new window instead.
      return open
        ? open
            .focus()
            .then((w) => w.navigate(url))
            .catch(() => self.clients.openWindow(url))
        : self.clients.openWindow(url);
    }),
  );
});
