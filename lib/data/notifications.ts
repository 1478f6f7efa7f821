import "server-only";
import { z } from "zod";
import { NOTIFICATION_KINDS } from "@/lib/notifications/kinds";
import { callRpc } from "./server-rpc";
import { noResult } from "./rpc";

// The player's notification centre and push choices. SQL writes the notifications (triggers on each
// event's table), checks the caller on every call and decides who is pushed what.

const notificationSchema = z.object({
  id: z.coerce.number(),
  kind: z.enum(NOTIFICATION_KINDS),
  title: z.string(),
  body: z.string(),
  link: z.string(),
  created_at: z.string(),
  read_at: z.string().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

const pageSchema = z.object({ items: z.array(notificationSchema), unread: z.number().int() });

export const NOTIFICATIONS_PAGE = 20;

/** One page, newest first: ids below `before` (the keyset cursor), and the unread count. */
export const getMyNotifications = (before: number | null) =>
  callRpc("get_my_notifications", { p_limit: NOTIFICATIONS_PAGE, p_before: before ?? undefined }, pageSchema);

export const getMyUnreadCount = () => callRpc("get_my_unread_count", {}, z.number().int());

export const markNotificationRead = (id: number) => callRpc("mark_notification_read", { p_id: id }, noResult);

export const markAllNotificationsRead = () => callRpc("mark_all_notifications_read", {}, z.number().int());

const pushSettingsSchema = z.object({ kinds: z.array(z.enum(NOTIFICATION_KINDS)), endpoints: z.array(z.string()) });
export type PushSettings = z.infer<typeof pushSettingsSchema>;

export const getMyPushSettings = () => callRpc("get_my_push_settings", {}, pushSettingsSchema);

export const setMyPushKinds = (kinds: string[]) => callRpc("set_my_push_kinds", { p_kinds: kinds }, noResult);

export const savePushSubscription = (s: { endpoint: string; p256dh: string; auth: string }) =>
  callRpc("save_push_subscription", { p_endpoint: s.endpoint, p_p256dh: s.p256dh, p_auth: s.auth }, noResult);

export const deletePushSubscription = (endpoint: string) =>
  callRpc("delete_push_subscription", { p_endpoint: endpoint }, z.boolean());
