import { z } from "zod";
import { requestTime } from "@/lib/competitions/status";
import { getLiveDraw } from "@/lib/data/live-draw";
import { defineRoute, routeRefusal, type RouteInput } from "@/lib/http/define-route";

// What the live draw page polls: the draw's state, and the draw once it exists (get_draw's public record).
// Public data read as anon, the same for everyone, so it is cached per competition for a second (then
// regenerated in the background; next.config's expireTime caps it at five): however many people watch, the
// database is asked about once a second. Under /competitions, which the proxy leaves alone.
export const revalidate = 1;
export const generateStaticParams = () => [];

async function get({ params }: RouteInput<{ competition: string }, undefined>) {
  const live = await getLiveDraw(decodeURIComponent(params.competition), requestTime());
  if (!live) return routeRefusal(404, "Competition not found");
  return Response.json(live.state);
}

export const GET = defineRoute({ kind: "json", params: z.object({ competition: z.string() }) }, get);
