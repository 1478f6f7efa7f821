import "server-only";
import { cache } from "react";
import { z } from "zod";
import { callPublicRpc } from "./public-rpc";
import { callRpc } from "./server-rpc";

// The settings every visitor may see (supabase/migrations/*_settings.sql, *_fair_play.sql).
const siteSettingsSchema = z.object({
  /** The launch countdown's moment; null means no countdown. */
  launch_at: z.iso.datetime().nullable(),
  /** The price of a second-class stamp, in pounds: what stamp parity is worked out from (in SQL). */
  stamp_price: z.coerce.number(),
  /** Where free postal entries go, one line each. */
  postal_address: z.array(z.string()),
  complaints_contact: z.string(),
  /** The independent dispute-resolution body complaints can be escalated to. */
  dispute_resolution_body: z.object({ name: z.string(), url: z.string() }),
  /** Who runs the promotion, with an address (CAP code 8.17): on every competition page. */
  promoter: z.object({ name: z.string(), address: z.array(z.string()) }),
});
export type SiteSettings = z.infer<typeof siteSettingsSchema>;

/** Read once per request, however many components ask. */
export const getSiteSettings = cache((): Promise<SiteSettings> => callRpc("get_site_settings", {}, siteSettingsSchema));

/** The same settings as anon, for the cached public pages (no cookies). */
export const getPublicSiteSettings = () => callPublicRpc("get_site_settings", {}, siteSettingsSchema);

/**
 * The promoter as anon, for a static page that names them outside a competition (/competitions-demo).
 * The build's placeholder (no database then) is never shown: the page is regenerated on its first visit.
 */
export async function getPublicPromoter(): Promise<SiteSettings["promoter"]> {
  const { promoter } = await callPublicRpc("get_site_settings", {}, siteSettingsSchema.pick({ promoter: true }), {
    promoter: { name: "", address: [] },
  });
  return promoter;
}

/**
 * The launch moment while it is still ahead (the countdown shows), else null. Read as anon: the
 * home page is cached and regenerated within seconds, and the countdown itself stops at zero.
 */
export async function getUpcomingLaunch(): Promise<string | null> {
  const { launch_at: launchAt } = await callPublicRpc(
    "get_site_settings",
    {},
    siteSettingsSchema.pick({ launch_at: true }),
    { launch_at: null },
  );
  return launchAt !== null && new Date(launchAt).getTime() > Date.now() ? launchAt : null;
}
