import "server-only";
import { getAccount, isAdmin, type MyAccount } from "@/lib/auth/session";
import { restrictionLabel } from "@/lib/protections/restriction";
import { DbError } from "@/lib/data/errors";
import { getMyProtections } from "@/lib/data/protections";
import { getMyUnreadCount } from "@/lib/data/notifications";
import type { HeaderSession } from "@/lib/auth/header-user";
import { log } from "@/lib/observability/log";

/** "On a break until …", "Self-excluded until …" or "Account closed" for a signed-in player, else null. */
async function getRestriction(): Promise<string | null> {
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
async function getUnread(account: MyAccount): Promise<number> {
  // A session still owing its second step reads no notification (SQL answers aal2_required): the bell shows none.
  if (account.two_step_owed) return 0;
  try {
    return await getMyUnreadCount();
  } catch (e) {
    if (!(e instanceof DbError)) throw e;
    log("error", "unread_count_failed", { error: e });
    return 0;
  }
}

/**
 * What the header shows about the signed-in visitor (GET /api/session/header); null when signed out. The account is
 * read once and handed to the other reads: a route handler has no per-request cache, so each helper reading it
 * again was another call to the database.
 */
export async function getHeaderSession(): Promise<HeaderSession | null> {
  const account = await getAccount();
  if (!account) return null;
  const [restriction, unread] = await Promise.all([getRestriction(), getUnread(account)]);
  const user = {
    name: account.name,
    email: account.email,
    approved: account.approved,
    rejected: account.rejected_at !== null,
    admin: isAdmin(account),
  };
  return { user, restriction, unread };
}
