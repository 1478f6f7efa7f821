"use server";

import { headers } from "next/headers";
import type { AssistantAnswer } from "@/lib/assistant/answer";
import { assistantReply, configuredPhrasing } from "@/lib/assistant/phrase";
import { assistantPromptSchema } from "@/lib/assistant/prompt-fields";
import { createRetriever, type Retriever } from "@/lib/assistant/retrieve";
import { searchRecords } from "@/lib/content/docs";
import { visitorKeyFrom } from "@/lib/supabase/visitor-fetch";
import { defineAction } from "./define-action";
import { ok, type ActionResult } from "./result";

// The docs are part of the build, so one index serves every question this server is asked.
let retriever: Retriever | null = null;

/**
 * The help assistant ("Send prompt"): anyone may ask; the answer comes from our documentation only (phrased
 * by an AI model when one is set up), or points a question about the asker's own account to the page that
 * shows it (lib/assistant).
 */
export const askAssistant = defineAction(
  { schema: assistantPromptSchema, role: "public" },
  async ({ prompt }): Promise<ActionResult<AssistantAnswer>> => {
    retriever ??= createRetriever(searchRecords());
    const visitor = visitorKeyFrom(await headers());
    return ok(await assistantReply(prompt, retriever, configuredPhrasing(visitor)));
  },
);
