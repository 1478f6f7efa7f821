import { env } from "@/lib/env";
import { defineRoute, type RouteInput } from "@/lib/http/define-route";
import { clientAddressArrived } from "@/lib/operations/production-check";

// GET /api/go-live/client-address: whether this request reached the site with the header its per-visitor limits
// count by (CLIENT_ADDRESS_HEADER), for `npm run check:production`, which runs outside the site. It says yes or no
// only, never the address or the header's name.
export const dynamic = "force-dynamic";

async function get({ request }: RouteInput<undefined, undefined>) {
  return Response.json(
    { arrived: clientAddressArrived(request.headers, env().clientAddress.header) },
    { headers: { "cache-control": "no-store" } },
  );
}

export const GET = defineRoute({ kind: "json", auth: "public" }, get);
