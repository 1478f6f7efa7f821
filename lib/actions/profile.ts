"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { revalidateEntryLists } from "@/lib/cache/public-pages";
import { setEmailNotifications, setInitialsOnly } from "@/lib/data/account";
import { formCheckbox } from "./action";
import { defineAction } from "./define-action";
import { ok } from "./result";

/** How the player appears if they win (CAP 8.28.5): by initials only, or by first name, surname initial and town. */
export const setInitialsOnlyAction = defineAction(
  { schema: z.object({ initialsOnly: formCheckbox }), role: "user" },
  async ({ initialsOnly }) => {
    const account = await setInitialsOnly(initialsOnly);
    // The public entry lists show the new name at once, not within their hour.
    revalidateEntryLists();
    refresh();
    return ok(
      undefined,
      account.show_initials_only
        ? "Saved: if you win, we will show only your initials."
        : "Saved: if you win, we will show your first name, surname initial and town.",
    );
  },
);

/** The notification preference: e-mail copies of news the site shows as it happens. Never marketing consent. */
export const setEmailNotificationsAction = defineAction(
  { schema: z.object({ emailNotifications: formCheckbox }), role: "user" },
  async ({ emailNotifications }) => {
    const account = await setEmailNotifications(emailNotifications);
    refresh();
    return ok(
      undefined,
      account.email_notifications
        ? "Saved: we will e-mail you your instant wins as well as showing them here."
        : "Saved: we will show your instant wins here only. Receipts, draw wins and account e-mails still come.",
    );
  },
);
