"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { dismissApprovalWelcome } from "@/lib/data/account";
import { defineAction } from "./define-action";
import { ok } from "./result";

/** Hides the one-time "You're approved" welcome for good (stored in SQL against the caller's own account). */
export const dismissWelcomeAction = defineAction({ schema: z.object({}), role: "user" }, async () => {
  await dismissApprovalWelcome();
  refresh();
  return ok(undefined);
});
