import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MockLanguageModelV4 } from "ai/test";
import type { LanguageModelV4CallOptions, LanguageModelV4GenerateResult } from "@ai-sdk/provider";
import { TokenBuckets } from "@labcash/embedded-supabase/rate-limit";
import { searchRecords } from "@/lib/content/docs";
import { answer } from "@/lib/assistant/answer";
import { parseEnv } from "@/lib/env";
import { createRetriever } from "@/lib/assistant/retrieve";
import {
  AI_CALLS_PER_VISITOR,
  PHRASE_INSTRUCTIONS,
  PHRASE_MAX_CHARS,
  PHRASE_MAX_TOKENS,
  assistantReply,
  configuredPhrasing,
  phrasingPrompt,
  visitorAllowance,
  type Phrasing,
} from "@/lib/assistant/phrase";

// The help assistant's AI phrasing, against the AI SDK's own mock language model over the real docs: what the
// model is sent, what the visitor gets back, and every way it falls back to the retrieval answer.
const retrieve = createRetriever(searchRecords());
const QUESTION = "How do I enter for free?";

const generated = (text: string): LanguageModelV4GenerateResult => ({
  content: [{ type: "text", text }],
  finishReason: { unified: "stop", raw: undefined },
  usage: {
    inputTokens: { total: 100, noCache: 100, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 20, text: 20, reasoning: undefined },
  },
  warnings: [],
});

const modelSaying = (text: string) => new MockLanguageModelV4({ doGenerate: async () => generated(text) });
const always = () => true;

let logLines: string[];
beforeEach(() => {
  logLines = [];
  const capture = (line: string) => void logLines.push(line);
  vi.spyOn(console, "error").mockImplementation(capture);
  vi.spyOn(console, "log").mockImplementation(capture);
});
afterEach(() => vi.restoreAllMocks());
const loggedEvents = () => logLines.map((line) => (JSON.parse(line) as { event: string }).event);

describe("phrasing the help assistant's answer with an AI model", () => {
  it("sends the model the instructions, the passages and the question, and nothing else", async () => {
    const model = modelSaying("Send a postcard.");
    await assistantReply(QUESTION, retrieve, { model, allow: always });

    expect(model.doGenerateCalls).toHaveLength(1);
    const call: LanguageModelV4CallOptions = model.doGenerateCalls[0];
    const passages = retrieve(QUESTION);
    expect(call.prompt).toEqual([
      { role: "system", content: PHRASE_INSTRUCTIONS },
      { role: "user", content: [{ type: "text", text: phrasingPrompt(QUESTION, passages) }] },
    ]);
    const sent = phrasingPrompt(QUESTION, passages);
    for (const passage of passages) expect(sent).toContain(passage.text);
    expect(sent.endsWith(`Question: ${QUESTION}`)).toBe(true);
    // Links come from retrieval, not the model: it never sees one.
    for (const passage of passages) expect(sent).not.toContain(passage.href);
    expect(call.tools ?? []).toEqual([]);
    expect(call.maxOutputTokens).toBe(PHRASE_MAX_TOKENS);
  });

  it("answers with the model's text and retrieval's citations", async () => {
    const reply = await assistantReply(QUESTION, retrieve, {
      model: modelSaying("  Post a card with your details.  "),
      allow: always,
    });
    expect(reply).toEqual({ kind: "docs", passages: retrieve(QUESTION), phrased: "Post a card with your details." });
    if (reply.kind !== "docs") throw new Error("expected a docs answer");
    expect(reply.passages[0].href).toMatch(/^\/docs\/competitions#/);
  });

  it("cuts an over-long answer at a word", async () => {
    const reply = await assistantReply(QUESTION, retrieve, {
      model: modelSaying("word ".repeat(PHRASE_MAX_CHARS)),
      allow: always,
    });
    const phrased = reply.kind === "docs" ? (reply.phrased ?? "") : "";
    expect(phrased.length).toBeLessThanOrEqual(PHRASE_MAX_CHARS + 1);
    expect(phrased).toMatch(/word…$/);
  });

  it("never sends a question about the asker's account to the model", async () => {
    const model = modelSaying("Your balance is £1,000,000.");
    const allow = vi.fn(always);
    const reply = await assistantReply("What is my balance?", retrieve, { model, allow });
    expect(reply).toEqual(answer("What is my balance?", retrieve));
    expect(reply.kind).toBe("account");
    expect(model.doGenerateCalls).toHaveLength(0);
    expect(allow).not.toHaveBeenCalled();
  });

  it("does not call the model when retrieval finds nothing", async () => {
    const model = modelSaying("Anything at all.");
    expect(await assistantReply("xylophone zeppelin", retrieve, { model, allow: always })).toEqual({ kind: "none" });
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it("falls back to the retrieval answer when the model fails, and logs it", async () => {
    const model = new MockLanguageModelV4({
      doGenerate: async () => {
        throw new Error("provider unavailable");
      },
    });
    const reply = await assistantReply(QUESTION, retrieve, { model, allow: always });
    expect(reply).toEqual(answer(QUESTION, retrieve));
    expect(loggedEvents()).toEqual(["assistant.phrase_failed"]);
  });

  it("falls back to the retrieval answer when the model is too slow", async () => {
    // A provider that answers only when the call is given up, as fetch does when its signal aborts.
    const model = new MockLanguageModelV4({
      doGenerate: ({ abortSignal }) =>
        new Promise((_, reject) => abortSignal?.addEventListener("abort", () => reject(abortSignal.reason))),
    });
    const phrasing: Phrasing = { model, allow: always, timeoutMs: 20 };
    expect(await assistantReply(QUESTION, retrieve, phrasing)).toEqual(answer(QUESTION, retrieve));
    expect(loggedEvents()).toEqual(["assistant.phrase_failed"]);
  });

  it("falls back to the retrieval answer once the visitor's allowance is spent, other visitors unaffected", async () => {
    const buckets = new TokenBuckets(() => 0);
    const model = modelSaying("Post a card.");
    const ask = (visitor: string) =>
      assistantReply(QUESTION, retrieve, { model, allow: visitorAllowance(buckets, visitor) });
    for (let i = 0; i < AI_CALLS_PER_VISITOR.burst; i++)
      expect(await ask("203.0.113.7")).toMatchObject({ phrased: "Post a card." });

    expect(await ask("203.0.113.7")).toEqual(answer(QUESTION, retrieve));
    expect(model.doGenerateCalls).toHaveLength(AI_CALLS_PER_VISITOR.burst);
    expect(loggedEvents()).toEqual(["assistant.phrase_limited"]);
    expect(await ask("198.51.100.2")).toMatchObject({ phrased: "Post a card." });
  });

  it("is set up by the AI Gateway key and model settings, and off without a key", () => {
    expect(configuredPhrasing("203.0.113.7", parseEnv({}))).toBeNull();
    const phrasing = configuredPhrasing("203.0.113.7", parseEnv({ AI_GATEWAY_API_KEY: "test-gateway-key" }));
    expect(phrasing?.model).toMatchObject({ modelId: "openai/gpt-5-mini" });
    const chosen = parseEnv({
      AI_GATEWAY_API_KEY: "test-gateway-key",
      ASSISTANT_AI_MODEL: "anthropic/claude-haiku-4.5",
    });
    expect(configuredPhrasing(null, chosen)?.model).toMatchObject({ modelId: "anthropic/claude-haiku-4.5" });
    expect(() => parseEnv({ ASSISTANT_AI_MODEL: "gpt-5-mini" })).toThrow(
      /ASSISTANT_AI_MODEL must be an AI Gateway model id/,
    );
  });
});
