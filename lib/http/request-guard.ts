import { NextResponse, type NextRequest } from "next/server";
import { crossOriginReason } from "./same-origin";

// What the proxy refuses before anything else (issue 21, item 6.3). Next answered each of these with a
// 500: a path with a malformed percent-escape (its route matcher throws while decoding the parameter) or
// an escaped control character (NUL reaches the database, which refuses it), a server action or a no-JS
// form post from another origin (Next's CSRF check throws), and a server action whose body cannot be
// parsed (React's decodeReply throws). Here they are what they are: 404, 403 and 400.

const NO_STORE = { "Cache-Control": "private, no-store" };
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
/** A path that matches no route: the rewrite renders the site's not-found page with status 404. */
const NOT_FOUND_PAGE = "/_labcash/not-found";
export const CROSS_ORIGIN_REFUSED = "Requests from other sites are refused";
export const BAD_ACTION_REQUEST = "Invalid Server Action request";

const text = (status: number, message: string) =>
  new NextResponse(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", ...NO_STORE } });

/** True when every segment of the raw (still escaped) path decodes to text without control characters. */
export function isWellFormedPath(rawPath: string): boolean {
  for (const segment of rawPath.split("/")) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return false;
    }
    if (CONTROL_CHARACTER.test(decoded)) return false;
  }
  return true;
}

const wantsHtml = (request: NextRequest) => (request.headers.get("accept") ?? "").includes("text/html");

const mediaType = (request: NextRequest) =>
  request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";

/**
 * A server action (`Next-Action` header) or a form post that may be one: a page's form posts itself
 * with `$ACTION_ID_…` fields when JavaScript has not run, and carries no header.
 */
function mayBeServerAction(request: NextRequest): boolean {
  if (request.headers.has("next-action")) return true;
  const type = mediaType(request);
  return type === "multipart/form-data" || type === "application/x-www-form-urlencoded";
}

/**
 * Whether the action's body is one React can decode at all: form data that parses (with JSON in its
 * root field "0" for a fetch action), or JSON text. A well-formed body with a bad reference inside
 * still reaches Next; this catches what a fuzzer or a hand-made request sends.
 */
async function actionBodyParses(request: NextRequest): Promise<boolean> {
  const type = mediaType(request);
  const fetchAction = request.headers.has("next-action");
  try {
    if (type === "multipart/form-data" || type === "application/x-www-form-urlencoded") {
      const form = await request.clone().formData();
      const root = form.get("0");
      if (fetchAction && typeof root === "string") JSON.parse(root);
      return true;
    }
    if (!fetchAction) return true;
    const body = await request.clone().text();
    if (body !== "") JSON.parse(body);
    return true;
  } catch {
    return false;
  }
}

/**
 * The proxy's first check: a response refusing the request, or null to carry on. Route handlers under
 * /api decide for themselves (webhooks and the cron come from other servers, without `Origin`).
 */
export async function refuseBadRequest(request: NextRequest): Promise<NextResponse | null> {
  if (!isWellFormedPath(request.nextUrl.pathname)) {
    return wantsHtml(request)
      ? NextResponse.rewrite(new URL(NOT_FOUND_PAGE, request.url), { request, status: 404, headers: NO_STORE })
      : text(404, "Not found");
  }
  if (request.method !== "POST" || request.nextUrl.pathname.startsWith("/api/") || !mayBeServerAction(request))
    return null;
  if (crossOriginReason(request.headers)) return text(403, CROSS_ORIGIN_REFUSED);
  if (!(await actionBodyParses(request))) return text(400, BAD_ACTION_REQUEST);
  return null;
}
