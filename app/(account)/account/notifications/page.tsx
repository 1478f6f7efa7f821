import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { Bell } from "lucide-react";
import { badgeClasses } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { NEWER_OLDER, Pagination } from "@/components/ui/pagination";
import { PageHeader } from "@/components/ui/page-header";
import { ActionButton } from "@/components/notifications/action-button";
import { PushSettings } from "@/components/notifications/push-settings";
import { isAdmin, requireUser } from "@/lib/auth/session";
import { getMyNotifications, getMyPushSettings, NOTIFICATIONS_PAGE } from "@/lib/data/notifications";
import { formatDateTime } from "@/lib/format";
import { vapidKeys } from "@/lib/push/vapid";
import { markAllNotificationsReadAction, markNotificationReadAction } from "@/lib/actions/notifications";

export const metadata: Metadata = { title: "Notifications", robots: { index: false } };

type SearchParams = Record<string, string | string[] | undefined>;

/** The keyset cursor and the cursors of the pages before it (so "Newer" steps back one page). */
function cursor(params: SearchParams): { before: number | null; trail: number[] } {
  const num = (v: string) => (/^\d{1,15}$/.test(v) ? Number(v) : null);
  const before = typeof params.before === "string" ? num(params.before) : null;
  const trail = typeof params.trail === "string" && before ? params.trail.split(",").map(num) : [];
  return { before, trail: trail.every((n) => n !== null) ? (trail as number[]) : [] };
}

const pageHref = (before: number | null, trail: number[]) => {
  if (before === null) return "/account/notifications";
  const query = new URLSearchParams({ before: String(before) });
  if (trail.length > 0) query.set("trail", trail.join(","));
  return `/account/notifications?${query}`;
};

export default async function NotificationsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const account = await requireUser("/account/notifications");
  const { before, trail } = cursor(await searchParams);
  const [page, push] = await Promise.all([getMyNotifications(before), getMyPushSettings()]);
  const last = page.items.at(-1);
  const older =
    page.items.length === NOTIFICATIONS_PAGE && last ? pageHref(last.id, before ? [...trail, before] : []) : null;
  const newer = before === null ? null : pageHref(trail.at(-1) ?? null, trail.slice(0, -1));
  const keys = vapidKeys();
  return (
    <div className="space-y-6">
      <PageHeader
        title="Notifications"
        description={
          <>
            What happened to your entries, credit, account, complaints and prizes. Your draw results are also listed
            together on{" "}
            <Link href="/account/entries" className="underline">
              My entries
            </Link>
            .
          </>
        }
      />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p>{page.unread === 1 ? "1 unread notification" : `${page.unread} unread notifications`}</p>
        {page.unread > 0 ? (
          <ActionButton action={markAllNotificationsReadAction} fields={{}}>
            Mark all read
          </ActionButton>
        ) : null}
      </div>
      {page.items.length === 0 ? (
        <EmptyState
          icon={<Bell aria-hidden />}
          title="No notifications yet"
          description="Draw results and account news appear here."
        />
      ) : (
        <ol className="space-y-3" aria-label="Notifications">
          {page.items.map((n) => (
            <li key={n.id}>
              <Card className={n.read_at ? "p-4" : "border-primary p-4"}>
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <div className="space-y-1">
                    <h2 className="font-semibold">
                      <Link href={n.link} className="underline underline-offset-4 hover:no-underline">
                        {n.title}
                      </Link>{" "}
                      {n.read_at ? null : <span className={badgeClasses("primary", "sm")}>Unread</span>}
                    </h2>
                    <p>{n.body}</p>
                    <p className="text-sm text-muted-foreground">{formatDateTime(n.created_at)}</p>
                  </div>
                  {n.read_at ? null : (
                    <ActionButton
                      action={markNotificationReadAction}
                      fields={{ id: String(n.id) }}
                      label={`Mark read: ${n.title}`}
                    >
                      Mark read
                    </ActionButton>
                  )}
                </div>
              </Card>
            </li>
          ))}
        </ol>
      )}
      <Pagination previousHref={newer} nextHref={older} words={NEWER_OLDER} label="Pages of notifications" />
      <PushSettings publicKey={keys?.publicKey ?? null} settings={push} admin={isAdmin(account)} />
    </div>
  );
}
