import { describe, expect, it } from "vitest";
import { searchRecords } from "@/lib/content/docs";
import { answer } from "@/lib/assistant/answer";
import { createRetriever } from "@/lib/assistant/retrieve";
import { accountQuestion } from "@/lib/assistant/account-questions";
import { assistantPromptSchema } from "@/lib/assistant/prompt-fields";
import { PROMPT_MAX } from "@/lib/assistant/prompt-limit";

// The help assistant over the real documentation: the questions players ask, and the section each must
// be answered from first.
const retrieve = createRetriever(searchRecords());

const topHref = (question: string) => retrieve(question)[0]?.href;

describe("help assistant retrieval", () => {
  it.each([
    ["How do I enter for free?", /^\/docs\/competitions#(free-entry-by-post|how-to-enter-by-post)$/],
    ["How do I withdraw my winnings?", /^\/docs\/competitions#(claiming-a-prize|cash-alternatives)$/],
    // The terms' "Competitions" section says it outright: selling out or not, the draw time stands.
    [
      "What happens if a competition does not sell out?",
      /^\/docs\/(competitions#selling-out-and-low-sales|getting-started#after-the-draw|legal\/terms-and-conditions#competitions)$/,
    ],
    ["How do I set a deposit limit?", /^\/docs\/responsible-play#monthly-limit$/],
    ["Can I get a refund?", /^\/docs\/credits#refunds$/],
  ])("%s → %s", (question, expected) => {
    expect(topHref(question)).toMatch(expected);
  });

  it("cites at most three passages, each a docs link with its text", () => {
    const passages = retrieve("How do I enter for free?");
    expect(passages.length).toBeGreaterThan(0);
    expect(passages.length).toBeLessThanOrEqual(3);
    for (const p of passages) {
      expect(p.href).toMatch(/^\/docs(\/|#|$)/);
      expect(p.text.length).toBeGreaterThan(0);
    }
  });

  it("finds nothing for words the docs never use", () => {
    expect(answer("xylophone zeppelin", retrieve)).toEqual({ kind: "none" });
  });
});

describe("questions about the player's own account", () => {
  it.each([
    ["What is my balance?", "/account/credits"],
    ["How much credit do I have left?", "/account/credits"],
    ["Did I win the PS5?", "/account/prizes"],
    ["Show me my entries", "/account/entries"],
    ["What's my monthly limit?", "/account/responsible-play"],
    ["Is my KYC verification done?", "/account"],
  ])("%s → %s, never the docs", (question, href) => {
    const reply = answer(question, retrieve);
    expect(reply.kind).toBe("account");
    expect(reply.kind === "account" && reply.pointer.href).toBe(href);
  });

  it.each(["How do I set a deposit limit?", "How do I withdraw my winnings?", "How do I enter for free?"])(
    "%s is about how the site works: answered from the docs",
    (question) => {
      expect(accountQuestion(question)).toBeNull();
      expect(answer(question, retrieve).kind).toBe("docs");
    },
  );
});

describe("the prompt field", () => {
  it("refuses an empty prompt and a blank one", () => {
    expect(assistantPromptSchema.safeParse({ prompt: "" }).success).toBe(false);
    expect(assistantPromptSchema.safeParse({ prompt: "   " }).success).toBe(false);
  });
  it(`refuses more than ${PROMPT_MAX} characters and takes ${PROMPT_MAX}`, () => {
    expect(assistantPromptSchema.safeParse({ prompt: "a".repeat(PROMPT_MAX + 1) }).success).toBe(false);
    expect(assistantPromptSchema.safeParse({ prompt: "a".repeat(PROMPT_MAX) }).success).toBe(true);
  });
});
