"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { setMyMarketingConsent } from "@/lib/data/account";
import { unsubscribeMarketing, unsubscribeTokenSchema } from "@/lib/data/unsubscribe";
import { defineAction } from "./define-action";
import { ok } from "./result";

/** The profile's one-click marketing choice: the button says which way it goes ("give" or "withdraw"). */
export const setMarketingConsentAction = defineAction(
  {
    schema: z.object({ choice: z.enum(["give", "withdraw"], { error: "Choose whether we may e-mail you" }) }),
    role: "user",
  },
  async ({ choice }) => {
    const consent = await setMyMarketingConsent(choice === "give");
    refresh();
    return ok(
      undefined,
      consent.given
        ? "Saved: we will e-mail you about new competitions and results."
        : "Saved: we will not send you marketing e-mails. Mail about your account and entries still comes.",
    );
  },
);

/**
 * The unsubscribe page's button: works signed out (the link's token is the authority, checked in SQL
 * through the server's key). A refusal (used or unknown link) comes back with its code.
 */
export const unsubscribeAction = defineAction(
  { schema: z.object({ token: unsubscribeTokenSchema }), role: "public" },
  async ({ token }) => {
    await unsubscribeMarketing(token);
    return ok(undefined, "You are unsubscribed: we will send you no more marketing e-mails.");
  },
);
