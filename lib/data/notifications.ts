import "server-only";
import { z } from "zod";
import { callRpc } from "./server-rpc";
import { declared, noResult } from "./rpc";

// The player's notification centre and push choices. SQL writes the notifications (triggers on each
// event's table), checks the caller on every call and decides who is pushed what.

export const NOTIFICATIONS_PAGE = 20;

/** One page, newest first: ids below `before` (the keyset cursor), and the unread count. */
export const getMyNotifications = (before: number | null) =>
  callRpc(
    "get_my_notifications",
    { p_limit: NOTIFICATIONS_PAGE, p_before: before ?? undefined },
    declared("items", "unread").with({ items: declared("id", "kind", "title", "body", "link", "created_at") }),
  );

export const getMyUnreadCount = () => callRpc("get_my_unread_count", {}, z.number().int());

export const markNotificationRead = (id: number) => callRpc("mark_notification_read", { p_id: id }, noResult);

export const markAllNotificationsRead = () => callRpc("mark_all_notifications_read", {}, z.number().int());

export const getMyPushSettings = () => callRpc("get_my_push_settings", {}, declared("kinds", "endpoints"));

export const setMyPushKinds = (kinds: string[]) => callRpc("set_my_push_kinds", { p_kinds: kinds }, noResult);

export const savePushSubscription = (s: { endpoint: string; p256dh: string; auth: string }) =>
  callRpc("save_push_subscription", { p_endpoint: s.endpoint, p_p256dh: s.p256dh, p_auth: s.auth }, noResult);

export const deletePushSubscription = (endpoint: string) =>
  callRpc("delete_push_subscription", { p_endpoint: endpoint }, z.boolean());
