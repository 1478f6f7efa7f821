import "server-only";
import { getAccount, isAdmin } from "@/lib/auth/session";
import { restrictionLabel } from "@/lib/protections/restriction";
import { DbError } from "@/lib/data/errors";
import { getMyProtections } from "@/lib/data/protections";
import { getMyUnreadCount } from "@/lib/data/notifications";
import type { HeaderSession, HeaderUser } from "@/lib/auth/header-user";
import { log } from "@/lib/observability/log";

export async function getHeaderUser(): Promise<HeaderUser | null> {
  const account = await getAccount();
  if (!account) return null;
  return { name: account.name, email: account.email, approved: account.approved, admin: isAdmin(account) };
}

/**
 * "On a break until …", "Self-excluded until …" or "Account closed" for a signed-in player, else null.
 * Only signed-in visitors cost the extra call, cached per request (the responsible-play page reuses it).
 */
async function getRestriction(): Promise<string | null> {
  if (!(await getAccount())) return null;
  try {
    return restrictionLabel(await getMyProtections());
  } catch (e) {
    // The header must not fail a page: without the state it shows none, and the SQL still enforces it.
    if (!(e instanceof DbError)) throw e;
    log("error", "protections_read_failed", { error: e });
    return null;
  }
}

/** The bell's count; like the restriction, a failure shows none rather than failing the page. */
async function getUnread(): Promise<number> {
  const account = await getAccount();
  // A session still owing its second step reads no notification (SQL answers aal2_required): the bell shows none.
  if (!account || account.two_step_owed) return 0;
  try {
    return await getMyUnreadCount();
  } catch (e) {
    if (!(e instanceof DbError)) throw e;
    log("error", "unread_count_failed", { error: e });
    return 0;
  }
}

/** What the header shows about the signed-in visitor (GET /api/session/header); null when signed out. */
export async function getHeaderSession(): Promise<HeaderSession | null> {
  const [user, restriction, unread] = await Promise.all([getHeaderUser(), getRestriction(), getUnread()]);
  return user ? { user, restriction, unread } : null;
}
