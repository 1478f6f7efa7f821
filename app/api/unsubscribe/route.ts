import { DbError } from "@/lib/data/errors";
import { redirectTo } from "@/lib/http/redirect";
import { unsubscribeMarketing, unsubscribeTokenSchema } from "@/lib/data/unsubscribe";
import { defineRoute, type RouteInput } from "@/lib/http/define-route";

// RFC 8058 one-click unsubscribe: the address in a marketing mail's List-Unsubscribe header. A mail
// program POSTs `List-Unsubscribe=One-Click` here from its own servers, with no cookies and no Origin
// of ours, so the token in the address is the only authority (SQL checks it, once). A GET changes
// nothing: link checkers and previews fetch addresses, so a person uses the page /unsubscribe instead.
export const dynamic = "force-dynamic";

const NO_STORE = { "Cache-Control": "private, no-store" };

async function post({ request }: RouteInput<undefined, undefined>) {
  const token = unsubscribeTokenSchema.safeParse(new URL(request.url).searchParams.get("token") ?? "");
  if (!token.success) return Response.json({ error: "unsubscribe_link_invalid" }, { status: 404, headers: NO_STORE });
  try {
    await unsubscribeMarketing(token.data);
  } catch (e) {
    if (!(e instanceof DbError)) throw e;
    // A link used once already has done its work: the mail program is told so, not asked to retry.
    if (e.code === "unsubscribe_link_used") return Response.json({ unsubscribed: true }, { headers: NO_STORE });
    if (e.code === "unsubscribe_link_invalid")
      return Response.json({ error: e.code }, { status: 404, headers: NO_STORE });
    throw e;
  }
  return Response.json({ unsubscribed: true }, { headers: NO_STORE });
}

/** A mail program without one-click support opens the address: it gets the page, which asks first. */
function get({ request }: RouteInput<undefined, undefined>) {
  const token = unsubscribeTokenSchema.safeParse(new URL(request.url).searchParams.get("token") ?? "");
  return redirectTo(token.success ? `/unsubscribe?token=${token.data}` : "/unsubscribe");
}

export const POST = defineRoute({ kind: "json" }, post);

export const GET = defineRoute({ kind: "html" }, get);
