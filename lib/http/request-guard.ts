import { NextResponse, type NextRequest } from "next/server";
import { log } from "@/lib/observability/log";
import { requestIdFrom } from "@/lib/observability/request-id";
import { crossOriginReason } from "./same-origin";

// What the proxy refuses before anything else. Next answered each of these with a
// 500: a path with a malformed percent-escape (its route matcher throws while decoding the parameter) or
// an escaped control character (NUL reaches the database, which refuses it), a server action or a no-JS
// form post from another origin (Next's CSRF check throws), a server action whose body cannot be parsed
// (React's decodeReply throws) or whose arguments no action here takes (the action throws on them). Here they
// are what they are: 404, 403 and 400, the last with one log line.

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

/** A reference to form data in React's reply encoding: `$K` and the hex id of the fields' prefix. */
const FORM_DATA_REFERENCE = /^\$K[0-9a-f]+$/;

/**
 * What a state may hold as React writes plain data into a reply: `$$`-escaped text, `undefined`, the special
 * numbers, a bigint, a date, a temporary reference. A state is an earlier answer of an action (JSON data), so
 * never a Map, Set, Blob, promise, stream, iterator or server reference, whose references React follows into
 * other parts of the body, and throws on when they lead nowhere.
 */
const PLAIN_VALUE = /^\$(?:\$|undefined$|NaN$|-?Infinity$|-0$|n-?\d+$|D|T$)/;
/** React's reference to an object met earlier in the same arguments: `$0:` and the keys leading to it. */
const EARLIER_OBJECT = /^\$0((?::[^:]*)+)$/;

/** Whether `value`, inside the arguments `root`, is plain data whose every reference leads to an object there. */
function isPlainData(value: unknown, root: unknown, depth = 0): boolean {
  if (depth > 32) return false;
  if (typeof value === "string") {
    if (!value.startsWith("$") || PLAIN_VALUE.test(value)) return true;
    const path = EARLIER_OBJECT.exec(value)?.[1].slice(1).split(":");
    if (!path) return false;
    let target: unknown = root;
    for (const key of path)
      target = typeof target === "object" && target !== null ? (target as Record<string, unknown>)[key] : undefined;
    return typeof target === "object" && target !== null;
  }
  if (typeof value !== "object" || value === null) return true;
  return Object.values(value).every((item) => isPlainData(item, root, depth + 1));
}

/**
 * Whether `args` are what every action on this site takes: the state before it and the form (defineAction,
 * `(previous, form)`, always through useActionState), the state plain data. Anything else (no form, more
 * arguments, a form that is not form data, a state leading React elsewhere in the body) would reach the action,
 * or React's decoding, wrongly shaped, where Next answered 500 with a stack trace.
 */
function isFormActionCall(args: unknown): boolean {
  return (
    Array.isArray(args) &&
    args.length === 2 &&
    typeof args[1] === "string" &&
    FORM_DATA_REFERENCE.test(args[1]) &&
    isPlainData(args[0], args)
  );
}

/**
 * Whether a no-JS form post that names an action calls it as useActionState's forms do: `$ACTION_REF_<p>`, its
 * reference (`$ACTION_<p>:0`) binding one argument, the state, before the form. An action named bare
 * (`$ACTION_ID_…`) would get the form as its state and no form. A post naming no action is no action call.
 */
function isFormPostCall(form: FormData): boolean {
  const keys = [...form.keys()];
  if (keys.some((key) => key.startsWith("$ACTION_ID_"))) return false;
  const ref = keys.find((key) => key.startsWith("$ACTION_REF_"));
  if (!ref) return true;
  const prefix = `$ACTION_${ref.slice("$ACTION_REF_".length)}:`;
  const root: unknown = JSON.parse(String(form.get(`${prefix}0`)));
  const bound = typeof root === "object" && root !== null ? (root as { bound?: unknown }).bound : null;
  const chunk = typeof bound === "string" ? /^\$@([0-9a-f]+)$/.exec(bound) : null;
  if (!chunk) return false;
  const boundArgs: unknown = JSON.parse(String(form.get(`${prefix}${parseInt(chunk[1], 16)}`)));
  // The bound state was written by the page's render: plain data, referring to nothing.
  return Array.isArray(boundArgs) && boundArgs.length === 1 && isPlainData(boundArgs[0], null);
}

/**
 * Why React could not decode the action's body or the site's actions could not take its arguments; null when
 * they can. Form data must parse, with JSON in its root field "0" for a fetch action, and JSON text otherwise;
 * the arguments inside must be a form action's. This catches what a fuzzer or a hand-made request sends.
 */
async function actionBodyProblem(request: NextRequest): Promise<string | null> {
  const type = mediaType(request);
  const fetchAction = request.headers.has("next-action");
  let args: unknown;
  try {
    if (type === "multipart/form-data" || type === "application/x-www-form-urlencoded") {
      const form = await request.clone().formData();
      if (!fetchAction) return isFormPostCall(form) ? null : "form post arguments";
      const root = form.get("0");
      args = typeof root === "string" ? JSON.parse(root) : undefined;
    } else {
      if (!fetchAction) return null;
      const body = await request.clone().text();
      args = body === "" ? undefined : JSON.parse(body);
    }
  } catch {
    return "undecodable body";
  }
  return isFormActionCall(args) ? null : "action arguments";
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
  const problem = await actionBodyProblem(request);
  if (!problem) return null;
  // One line, no stack: a hand-made request is not the site's fault.
  log("warn", "action_refused", {
    request_id: requestIdFrom(request.headers),
    path: request.nextUrl.pathname,
    action: request.headers.get("next-action"),
    problem,
  });
  return text(400, BAD_ACTION_REQUEST);
}
