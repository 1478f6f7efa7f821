"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import {
  deletePushSubscription,
  markAllNotificationsRead,
  markNotificationRead,
  savePushSubscription,
  setMyPushKinds,
} from "@/lib/data/notifications";
import { callPublicRpc } from "@/lib/data/public-rpc";
import { NOTIFICATION_KINDS } from "@/lib/notifications/kinds";
import { pushSubscriptionSchema } from "@/lib/notifications/push-subscription";
import { ticketCheckSchema, type TicketCheck } from "@/lib/notifications/ticket-check";
import { formList } from "./action";
import { defineAction } from "./define-action";
import { ok } from "./result";

const NOT_FOUND = "That notification could not be found";

/** Marks one of the caller's notifications read (SQL refuses anyone else's as not found). */
export const markNotificationReadAction = defineAction(
  {
    // A hidden field: anything but a positive whole number is a forged or stale form.
    schema: z.object({
      id: z.coerce.number({ error: NOT_FOUND }).int(NOT_FOUND).positive(NOT_FOUND),
    }),
    role: "user",
  },
  async ({ id }) => {
    await markNotificationRead(id);
    refresh();
    return ok(undefined);
  },
);

export const markAllNotificationsReadAction = defineAction({ schema: z.object({}), role: "user" }, async () => {
  const marked = await markAllNotificationsRead();
  refresh();
  return ok(marked, marked === 1 ? "1 notification marked read" : `${marked} notifications marked read`);
});

/** The kinds the caller wants as web push (the boxes ticked; none is a valid choice). */
export const setPushKindsAction = defineAction(
  { schema: z.object({ kinds: formList.pipe(z.array(z.enum(NOTIFICATION_KINDS))) }), role: "user" },
  async ({ kinds }) => {
    await setMyPushKinds(kinds);
    refresh();
    return ok(undefined, "Push choices saved");
  },
);

/** Stores this browser's subscription (PushManager.subscribe) for the caller. */
export const savePushSubscriptionAction = defineAction(
  { schema: pushSubscriptionSchema, role: "user" },
  async (subscription) => {
    await savePushSubscription(subscription);
    refresh();
    return ok(undefined, "Push is on in this browser");
  },
);

export const deletePushSubscriptionAction = defineAction(
  { schema: pushSubscriptionSchema.pick({ endpoint: true }), role: "user" },
  async ({ endpoint }) => {
    await deletePushSubscription(endpoint);
    refresh();
    return ok(undefined, "Push is off in this browser");
  },
);

/** "Did I win?": anyone, on the public pages (which stay cached: the answer comes from this action). */
export const checkTicketAction = defineAction(
  {
    schema: z.object({
      slug: z.string({ error: "Choose a competition" }).min(1, "Choose a competition").max(200, "Choose a competition"),
      // As the receipt shows it ("#42") or bare; empty is its own message, not "starts at 1".
      number: z
        .string({ error: "Enter a ticket number" })
        .trim()
        .min(1, { error: "Enter a ticket number", abort: true })
        .regex(/^#?\d{1,9}$/, "Enter the ticket number in figures, for example 42")
        .transform((value) => Number(value.replace("#", "")))
        .pipe(z.number().int().min(1, "Ticket numbers start at 1")),
    }),
    role: "public",
  },
  async ({ slug, number }) =>
    ok<TicketCheck>(await callPublicRpc("check_ticket", { p_slug: slug, p_number: number }, ticketCheckSchema)),
);
