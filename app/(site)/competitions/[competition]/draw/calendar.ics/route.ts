import { z } from "zod";
import { drawCalendar } from "@/lib/draws/live-draw";
import { getPublicCompetition } from "@/lib/data/competitions";
import { defineRoute, routeRefusal, type RouteInput } from "@/lib/http/define-route";
import { canonicalOrigin } from "@/lib/site-url";

// "Add the draw to your calendar": a reminder anyone may keep, signed in or not (docs/decisions/026). The draw time
// never changes once published, so the file is cached like the pages.
export const revalidate = 60;
export const generateStaticParams = () => [];

async function get({ params }: RouteInput<{ competition: string }, undefined>) {
  const c = await getPublicCompetition(decodeURIComponent(params.competition));
  if (!c) return routeRefusal(404, "Competition not found");
  const url = `${canonicalOrigin()}/competitions/${c.slug}/draw`;
  const body = drawCalendar({ id: c.id, title: c.title, drawAt: c.draw_at, url, stamp: c.published_at ?? c.draw_at });
  return new Response(body, {
    headers: {
      "content-type": "text/calendar; charset=utf-8",
      "content-disposition": `attachment; filename="labcash-${c.slug}-draw.ics"`,
    },
  });
}

export const GET = defineRoute({ kind: "html", params: z.object({ competition: z.string() }) }, get);
