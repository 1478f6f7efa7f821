import type { Metadata } from "next";
import { NotificationButtons } from "@/components/demo/notification-buttons";

export const metadata: Metadata = { title: "Notification System Test", robots: { index: false } };

export default function NotificationsTestPage() {
  return (
    <section className="mx-auto max-w-3xl px-4 py-14 sm:px-6">
      <h1 className="text-4xl font-extrabold tracking-tight">Notification System Test</h1>
      <p className="mt-3 text-muted-foreground">
        Fires every kind of notification through the site-wide toaster: bottom-right, open for 5 seconds with a bar
        showing the time left, a close button, swipe right or down to dismiss, at most 5 shown at once. Hover the stack
        to pause and expand it.
      </p>
      <div className="mt-8">
        <NotificationButtons />
      </div>
    </section>
  );
}
