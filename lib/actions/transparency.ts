"use server";

import { headers } from "next/headers";
import { z } from "zod";
import { isBot } from "@/lib/bots";
import { countDrawCheck } from "@/lib/data/transparency";
import { visitorKeyFrom } from "@/lib/supabase/visitor-fetch";
import { defineAction } from "./define-action";
import { ok } from "./result";

/**
 * A visitor's browser recomputed a draw and it checked out: counted for the trust page (/transparency), once per
 * visitor, draw and day. Crawlers that run the page's scripts are not visitors and are not counted.
 */
export const recordDrawCheckAction = defineAction(
  { schema: z.object({ draw_id: z.uuid("Choose a draw") }), role: "public" },
  async ({ draw_id }) => {
    const request = await headers();
    if (isBot(request.get("user-agent"))) return ok(false);
    return ok(await countDrawCheck(draw_id, visitorKeyFrom(request)));
  },
);
