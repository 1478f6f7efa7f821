import "server-only";
import { getAccount, getSessionFacts } from "@/lib/auth/session";
import { defineActionWith } from "./action";

/** Declares a server action: `defineAction({ schema, role }, async (input, account) => …)`. See ./action.ts. */
export const defineAction = defineActionWith(getAccount, getSessionFacts);
