// Pieces of GoTrue that are plain functions of their input: the action links the admin API's
// generate_link answers with (internal/mailer GetEmailActionLink), and the admin user list's paging
// (internal/api/shared/pagination.go). Kept apart from auth.ts, which holds the endpoints.
import { authErrors } from "./auth-errors";

/** Go's url.QueryEscape: everything but letters, digits and -_.~ is %-encoded, a space becomes "+". */
export function goQueryEscape(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, "+");
}

/** GoTrue's encodeRedirectURL: a redirect with &, = or # was not encoded by the caller, so it is escaped. */
function encodeRedirect(redirectTo: string): string {
  return /[&=#]/.test(redirectTo) ? goQueryEscape(redirectTo) : redirectTo;
}

/**
 * The link GoTrue's generate_link answers (and its default e-mail templates carry):
 * `<auth url>/verify?token=<token hash>&type=<type>&redirect_to=<url>`, which GET /verify follows.
 */
export function actionLink(authUrl: string, tokenHash: string, type: string, redirectTo: string): string {
  return `${authUrl}/verify?token=${goQueryEscape(tokenHash)}&type=${goQueryEscape(type)}&redirect_to=${encodeRedirect(redirectTo)}`;
}

/** GoTrue's page size bounds for GET /admin/users. */
export const DEFAULT_PER_PAGE = 50;
export const MAX_PER_PAGE = 1000;
const MAX_PAGE = 2 ** 31 - 1;
const MAX_UINT64 = 2n ** 64n - 1n;

/** Go's strconv.ParseUint(value, 10, 64), with its error text. */
function parseUint(value: string): bigint {
  const quoted = JSON.stringify(value);
  if (!/^[0-9]+$/.test(value)) throw new Error(`strconv.ParseUint: parsing ${quoted}: invalid syntax`);
  const n = BigInt(value);
  if (n > MAX_UINT64) throw new Error(`strconv.ParseUint: parsing ${quoted}: value out of range`);
  return n;
}

/**
 * GoTrue's Paginate: `page` from 1 to 2^31-1 (default 1), `per_page` from 1 to 1000 (default 50);
 * anything else is a 400 validation_failed "Bad Pagination Parameters: …" with Go's reason.
 */
export function paginate(query: URLSearchParams): { page: number; perPage: number } {
  const rawPage = query.get("page") ?? "";
  const rawPerPage = query.get("per_page") ?? "";
  let page = 1;
  let perPage = DEFAULT_PER_PAGE;
  try {
    if (rawPage !== "") {
      const n = parseUint(rawPage);
      if (n === 0n) throw new Error("page must be greater than 0");
      if (n > BigInt(MAX_PAGE)) throw new Error("page exceeds maximum allowed value");
      page = Number(n);
    }
    if (rawPerPage !== "") {
      const n = parseUint(rawPerPage);
      if (n === 0n) throw new Error("per_page must be greater than 0");
      if (n > BigInt(MAX_PER_PAGE)) throw new Error(`per_page must not exceed ${MAX_PER_PAGE}`);
      perPage = Number(n);
    }
  } catch (e) {
    throw authErrors.badPagination((e as Error).message);
  }
  return { page, perPage };
}

/**
 * GoTrue's AddPaginationHeaders: a `next` link while pages remain and always a `last` one (page 1 for
 * an empty list), each the request's own path and query with `page` replaced, keys in Go's sorted
 * order. supabase-js reads the page number from these.
 */
export function paginationLinks(path: string, query: URLSearchParams, page: number, perPage: number, total: number) {
  const totalPages = Math.max(Math.ceil(total / perPage), 1);
  const withPage = (n: number) => {
    const q = new URLSearchParams(query);
    q.set("page", String(n));
    const pairs = [...q.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `<${path}?${pairs.map(([k, v]) => `${goQueryEscape(k)}=${goQueryEscape(v)}`).join("&")}>`;
  };
  let header = "";
  if (totalPages > page) header += `${withPage(page + 1)}; rel="next", `;
  header += `${withPage(totalPages)}; rel="last"`;
  return header;
}
