"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { revalidateEntryLists } from "@/lib/cache/public-pages";
import { setInitialsOnly } from "@/lib/data/account";
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
