import { z } from "zod";

/** The longest question the help assistant reads: a question, not a document. */
export const PROMPT_MAX = 500;

export const assistantPromptSchema = z.object({
  prompt: z
    .string()
    .trim()
    .min(1, "Type a question first")
    .max(PROMPT_MAX, `Keep your question to ${PROMPT_MAX} characters or fewer`),
});
