import { Link } from "@/components/ui/link";
import { Bell } from "lucide-react";
import { buttonClasses } from "@/components/ui/button";

/**
 * The header's bell: a link to the notification centre, its name saying how many are unread in the words the badge
 * shows (past 99, "99+"), so what is read out and what is seen agree.
 */
export function NotificationBell({ unread }: { unread: number }) {
  const shown = unread > 99 ? "99+" : String(unread);
  const label = unread === 0 ? "Notifications" : `Notifications, ${shown} unread`;
  return (
    <Link href="/account/notifications" aria-label={label} className={buttonClasses("ghost", "icon", "relative")}>
      <Bell aria-hidden />
      {unread > 0 ? (
        <span
          aria-hidden
          className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-primary px-1 text-center text-xs leading-5 font-semibold text-primary-foreground"
        >
          {shown}
        </span>
      ) : null}
    </Link>
  );
}
