import "server-only";
import { cache } from "react";
import { callPublicRpc } from "./public-rpc";
import { declared, type RpcOutput } from "./rpc";
import { callRpc } from "./server-rpc";

// The settings every visitor may see: get_site_settings returns the declared public.site_settings. Every
// setting is installed by the migrations and checked when it is saved, so only `launch_at` (null: no countdown)
// is ever null; the stamp price is what stamp parity is worked out from (in SQL), the addresses are one line
// each, and the promoter (CAP code 8.17) is named on every competition page.
const siteSettings = declared(
  "stamp_price",
  "postal_address",
  "complaints_contact",
  "dispute_resolution_body",
  "spinner_enabled",
  "promoter",
).with({
  dispute_resolution_body: declared("name", "url"),
  promoter: declared("name", "address"),
});
export type SiteSettings = RpcOutput<"get_site_settings", typeof siteSettings>;

/** Read once per request, however many components ask. */
export const getSiteSettings = cache(() => callRpc("get_site_settings", {}, siteSettings));

/** The same settings as anon, for the cached public pages (no cookies). */
export const getPublicSiteSettings = () => callPublicRpc("get_site_settings", {}, siteSettings);

/**
 * As getPublicSiteSettings, for the static pages `next build` prerenders with no database to read: the build
 * answers a placeholder, never shown, since each such page is regenerated on its first visit (lib/data/public-rpc.ts).
 */
export const getStaticSiteSettings = () =>
  callPublicRpc("get_site_settings", {}, siteSettings, {
    launch_at: null,
    stamp_price: 0,
    postal_address: [],
    complaints_contact: "",
    dispute_resolution_body: { name: "", url: "" },
    spinner_enabled: false,
    promoter: { name: "", address: [] },
  });

/** The promoter, for a static page that names them outside a competition (/competitions-demo). */
export const getPublicPromoter = async (): Promise<SiteSettings["promoter"]> =>
  (await getStaticSiteSettings()).promoter;

/**
 * The launch moment while it is still ahead (the countdown shows), else null. Read as anon: the
 * home page is cached and regenerated within seconds, and the countdown itself stops at zero.
 */
export async function getUpcomingLaunch(): Promise<string | null> {
  const { launch_at: launchAt } = await getStaticSiteSettings();
  return launchAt !== null && new Date(launchAt).getTime() > Date.now() ? launchAt : null;
}
