import { z } from "zod";
import { PROMPT_MAX } from "@/lib/assistant/prompt-limit";

export const assistantPromptSchema = z.object({
  prompt: z
    .string()
    .trim()
    .min(1, "Type a question first")
    .max(PROMPT_MAX, `Keep your question to ${PROMPT_MAX} characters or fewer`),
});
