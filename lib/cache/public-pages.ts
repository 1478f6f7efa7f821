import "server-only";
import { revalidatePath, revalidateTag } from "next/cache";
import { ENTRY_LIST_TAG } from "@/lib/data/entry-list";
import { TRANSPARENCY_TAG } from "@/lib/data/transparency";

// The public pages that show competition data are static, regenerated in the background once two
// seconds old (each page's `revalidate`) and never served older than five (next.config's expireTime). A change made through the app expires them at once instead, so the next
// visitor waits for a fresh render rather than seeing the old one.

// A page's cache tags come from its route file, route group included, so the patterns name "(site)".
const COMPETITION_PAGE = "/(site)/competitions/[competition]";
const DRAW_PAGE = "/(site)/winners/[drawId]";
const LIVE_DRAW_PAGE = "/(site)/competitions/[competition]/draw";
/** The search palette's competition index (a cached route handler). */
const COMPETITION_SEARCH_INDEX = "/competitions/search.json";

/**
 * Every page that lists or shows competitions, draws or the site settings they print, the trust page's figures, the
 * charities page,
 * and the cached entry lists (a drawn list's pages live in Next's data cache for an hour under ENTRY_LIST_TAG):
 * after a draw, a postal entry or a change made in SQL they show the new state on the next request. The
 * `{ expire: 0 }` profile expires the tag at once (Next 16; "max" would serve the old list once more).
 */
export function revalidateCompetitionPages() {
  revalidateEntryLists();
  revalidatePath("/");
  revalidatePath("/competitions");
  revalidatePath(COMPETITION_SEARCH_INDEX);
  revalidatePath(COMPETITION_PAGE, "page");
  revalidatePath("/winners");
  revalidatePath(DRAW_PAGE, "page");
  revalidatePath(LIVE_DRAW_PAGE, "page");
  revalidatePath("/competitions-demo");
  revalidateTag(TRANSPARENCY_TAG, { expire: 0 });
  revalidatePath("/transparency");
  revalidatePath("/charities");
}

/**
 * After a purchase: the competition pages, so the buyer's page comes back from the action with the
 * new sold count (and their tickets through its island), and the live draw pages' entries so far. The lists catch up within their window,
 * so a sales rush does not also expire the home page on every ticket.
 */
export function revalidateCompetitionDetailPages() {
  revalidatePath(COMPETITION_PAGE, "page");
  revalidatePath(LIVE_DRAW_PAGE, "page");
}

/** After a winner's photo or quote is published, replaced or removed, or its consent changes: where it shows. */
export function revalidateWinnerPages() {
  revalidatePath("/winners");
  revalidatePath(COMPETITION_PAGE, "page");
}

/** The cached (drawn) entry lists: after a draw, a postal entry, or a change to how a player is named. */
export function revalidateEntryLists() {
  revalidateTag(ENTRY_LIST_TAG, { expire: 0 });
}
