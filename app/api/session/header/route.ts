import { getHeaderSession } from "@/components/layout/header-session";

// The signed-in part of the site header (name, menu, restriction), read by the header's client
// island so every public page can be one static document for everyone. Personal: never cached.
export const dynamic = "force-dynamic";

export async function GET() {
  return Response.json(await getHeaderSession(), { headers: { "Cache-Control": "private, no-store" } });
}
