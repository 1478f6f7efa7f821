import { z } from "zod";
import { APPROVAL_STATES, KYC_STATUSES, USER_ROLES, type UserFilter } from "@/lib/data/admin-users-options";
import { firstParam, paramReader, type SearchParams } from "@/lib/http/search-params";

export type { SearchParams };

// The users list's URL (q, role, approval, kyc and the keyset cursor) read with zod. A bad value is
// dropped with a note, never a 500; the rest of the filter still applies. Pure, so it is testable.

export const USERS_PAGE_SIZE = 25;
const MAX_TRAIL = 50;

const cursorSchema = z.string().regex(/^\d{1,12}\.\d{6}:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

export type UsersQuery = UserFilter & { cursor: string | null; trail: string[] };
export function parseUsersQuery(params: SearchParams): { query: UsersQuery; ignored: string[] } {
  const { read, ignored } = paramReader(params);
  const search = read("q", z.string().max(200), () => "The search was over 200 characters, so it was not used.");
  const role = read("role", z.enum(USER_ROLES), (v) => `“${v}” is not a role, so every role is shown.`);
  const approval = read(
    "approval",
    z.enum(APPROVAL_STATES),
    (v) => `“${v}” is not an approval state, so all are shown.`,
  );
  const kyc = read("kyc", z.enum(KYC_STATUSES), (v) => `“${v}” is not a KYC status, so all are shown.`);
  const flagged =
    read("flagged", z.literal("yes"), (v) => `“${v}” is not a flag filter, so every user is shown.`) === "yes";
  const cursor = read("after", cursorSchema, () => "That page link was not valid, so the first page is shown.");
  const trailText = cursor === null ? null : firstParam(params, "trail");
  const trail = trailText
    ? trailText
        .split(",")
        .filter((c) => cursorSchema.safeParse(c).success)
        .slice(-MAX_TRAIL)
    : [];
  return { query: { search, role, approval, kyc, flagged, cursor, trail }, ignored };
}

export const isFiltered = (f: UserFilter) => Boolean(f.search || f.role || f.approval || f.kyc || f.flagged);

export function usersHref(filter: UserFilter, page: { cursor: string | null; trail: string[] } | null = null) {
  const params = new URLSearchParams();
  if (filter.search) params.set("q", filter.search);
  if (filter.role) params.set("role", filter.role);
  if (filter.approval) params.set("approval", filter.approval);
  if (filter.kyc) params.set("kyc", filter.kyc);
  if (filter.flagged) params.set("flagged", "yes");
  if (page?.cursor) {
    params.set("after", page.cursor);
    if (page.trail.length) params.set("trail", page.trail.join(","));
  }
  const text = params.toString();
  return `/admin/users${text ? `?${text}` : ""}`;
}

export function nextUsersHref(query: UsersQuery, nextCursor: string | null): string | null {
  if (!nextCursor) return null;
  const trail = query.cursor ? [...query.trail, query.cursor].slice(-MAX_TRAIL) : [];
  return usersHref(query, { cursor: nextCursor, trail });
}

export function previousUsersHref(query: UsersQuery): string | null {
  if (!query.cursor) return null;
  return usersHref(query, { cursor: query.trail.at(-1) ?? null, trail: query.trail.slice(0, -1) });
}
