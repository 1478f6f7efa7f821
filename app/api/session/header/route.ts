import { getHeaderSession } from "@/lib/auth/header-session";
import { defineRoute } from "@/lib/http/define-route";

// The signed-in part of the site header (name, menu, restriction), read by the header's client
// island so every public page can be one static document for everyone. Personal: never cached.
export const dynamic = "force-dynamic";

async function get() {
  return Response.json(await getHeaderSession(), { headers: { "Cache-Control": "private, no-store" } });
}

export const GET = defineRoute({ kind: "json" }, get);
