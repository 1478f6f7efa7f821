import "server-only";
import { cache } from "react";
import { z } from "zod";
import { callRpc } from "./server-rpc";

// The settings every visitor may see (supabase/migrations/*_site_settings.sql).
const siteSettingsSchema = z.object({
  /** The launch countdown's moment; null means no countdown. */
  launch_at: z.iso.datetime().nullable(),
});
export type SiteSettings = z.infer<typeof siteSettingsSchema>;

/** Read once per request, however many components ask. */
export const getSiteSettings = cache((): Promise<SiteSettings> => callRpc("get_site_settings", {}, siteSettingsSchema));

/** The launch moment while it is still ahead (the countdown shows), else null. */
export async function getUpcomingLaunch(): Promise<string | null> {
  const { launch_at: launchAt } = await getSiteSettings();
  return launchAt !== null && new Date(launchAt).getTime() > Date.now() ? launchAt : null;
}
