// The help assistant's optional AI phrasing (docs/decisions/041): with an AI Gateway key set, a model
// rewrites the passages retrieval found into an answer to the question. Retrieval still decides what is cited:
// the answer keeps the same passages and links, and the model's text is shown as plain text beside them, never
// as a source of links. Without a key, over the visitor's allowance, or when the model fails or is slow, the
// retrieval answer is shown as it always was.
import "server-only";
import { createGateway, generateText, type LanguageModel } from "ai";
import { TokenBuckets, type Rate } from "@labcash/embedded-supabase/rate-limit";
import { env, type Env } from "@/lib/env";
import { log } from "@/lib/observability/log";
import { answer, type AssistantAnswer } from "./answer";
import type { Passage, Retriever } from "./retrieve";

/** How long a visitor waits for the model before the retrieval answer is shown instead. */
export const PHRASE_TIMEOUT_MS = 5_000;
/** The model's output bound: a short answer, and a bound on what one call costs. */
export const PHRASE_MAX_TOKENS = 400;
/** What the page shows at most, whatever a provider does with the token bound. */
export const PHRASE_MAX_CHARS = 1_500;

// Model calls cost money: each visitor may have a few at once, then 20 an hour; past that, retrieval answers.
export const AI_CALLS_PER_VISITOR: Rate = { perWindow: 20, windowMs: 60 * 60 * 1000, burst: 5 };

export const PHRASE_INSTRUCTIONS = [
  "You answer questions from visitors to LabCash, a UK prize-competition website.",
  "Answer only from the numbered passages of LabCash's documentation in the message; use nothing else you know.",
  "If the passages do not answer the question, say that you do not know and that the pages below may help.",
  "You cannot see anyone's account: for a question about the asker's own balance, entries, prizes or details," +
    " say that their Account pages show it.",
  "Write at most three short paragraphs of plain text, in British English: no Markdown, no links, no URLs.",
].join("\n");

/** The one message the model reads: the passages, numbered, then the question. Nothing else reaches it. */
export function phrasingPrompt(question: string, passages: readonly Passage[]): string {
  const numbered = passages.map(
    (passage, i) => `[${i + 1}] ${[...passage.trail, passage.title].join(" › ")}\n${passage.text}`,
  );
  return `Documentation passages:\n\n${numbered.join("\n\n")}\n\nQuestion: ${question}`;
}

export interface Phrasing {
  model: LanguageModel;
  /** Takes one model call from the asking visitor's allowance; false when none is left. */
  allow: () => boolean;
  timeoutMs?: number;
}

/** The model's text, trimmed and cut to what the page shows (at a word, marked). */
function bounded(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length <= PHRASE_MAX_CHARS) return trimmed;
  const cut = trimmed.slice(0, PHRASE_MAX_CHARS);
  return `${cut.slice(0, cut.lastIndexOf(" ") > 0 ? cut.lastIndexOf(" ") : cut.length)}…`;
}

/**
 * The answer to one question: retrieval's (lib/assistant/answer.ts), phrased by the model when `phrasing` is
 * given, the question is about the docs (an account question never reaches the model) and the visitor has an
 * allowance left.
 */
export async function assistantReply(
  question: string,
  retrieve: Retriever,
  phrasing: Phrasing | null,
): Promise<AssistantAnswer> {
  const reply = answer(question, retrieve);
  if (reply.kind !== "docs" || !phrasing) return reply;
  if (!phrasing.allow()) {
    log("info", "assistant.phrase_limited");
    return reply;
  }
  try {
    const { text } = await generateText({
      model: phrasing.model,
      instructions: PHRASE_INSTRUCTIONS,
      prompt: phrasingPrompt(question, reply.passages),
      maxOutputTokens: PHRASE_MAX_TOKENS,
      timeout: phrasing.timeoutMs ?? PHRASE_TIMEOUT_MS,
      // A retry would outlast the visitor's patience: the retrieval answer is there at once.
      maxRetries: 0,
    });
    const phrased = bounded(text);
    return phrased ? { ...reply, phrased } : reply;
  } catch (error) {
    log("warn", "assistant.phrase_failed", { error });
    return reply;
  }
}

/** One visitor's allowance of model calls in `buckets` (visitors without an address share one). */
export function visitorAllowance(buckets: TokenBuckets, visitor: string | null): () => boolean {
  return () => buckets.take(`assistant_ai:${visitor ?? "unknown"}`, AI_CALLS_PER_VISITOR);
}

// This server's allowances, in memory: per instance, so a bound on cost rather than an exact count.
const allowances = new TokenBuckets();

/** The phrasing the settings ask for (AI_GATEWAY_API_KEY, ASSISTANT_AI_MODEL), for `visitor`; null without a key. */
export function configuredPhrasing(
  visitor: string | null,
  settings: Pick<Env, "AI_GATEWAY_API_KEY" | "ASSISTANT_AI_MODEL"> = env(),
): Phrasing | null {
  const { AI_GATEWAY_API_KEY: apiKey, ASSISTANT_AI_MODEL: modelId } = settings;
  if (!apiKey) return null;
  return { model: createGateway({ apiKey })(modelId), allow: visitorAllowance(allowances, visitor) };
}
