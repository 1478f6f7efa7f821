import { describe, expect, it } from "vitest";
import { searchRecords } from "@/lib/content/docs";
import { answer } from "@/lib/assistant/answer";
import { createRetriever } from "@/lib/assistant/retrieve";

// Questions players ask on UK competition sites, in their words, each with the docs section that answers it (more
// than one where two sections answer it equally). The help assistant must put an answering section first.
const retrieve = createRetriever(searchRecords());

const QUESTIONS: [question: string, answeredBy: string[]][] = [
  ["how long until I get my prize", ["/docs/competitions#claiming-a-prize"]],
  [
    "is the draw rigged",
    [
      "/docs/fair-draws",
      "/docs/fair-draws#commit-then-reveal",
      "/docs/fair-draws#verify-a-draw-yourself",
      "/docs/fair-draws#choosing-the-ticket-without-bias",
    ],
  ],
  ["can I get a refund", ["/docs/credits#refunds"]],
  ["where do I send my postal entry", ["/docs/competitions#how-to-enter-by-post"]],
  ["What's the address for free entry?", ["/docs/competitions#how-to-enter-by-post"]],
  ["How do I enter for free?", ["/docs/competitions#free-entry-by-post", "/docs/competitions#how-to-enter-by-post"]],
  [
    "What happens if the competition doesn't sell out?",
    [
      "/docs/competitions#selling-out-and-low-sales",
      "/docs/getting-started#after-the-draw",
      "/docs/legal/terms-and-conditions#competitions",
    ],
  ],
  ["Can I pick my own numbers?", ["/docs/competitions#pick-your-numbers"]],
  [
    "How many tickets can I buy?",
    [
      "/docs/competitions#tickets",
      "/docs/competitions#the-per-person-limit",
      "/docs/how-it-works#limits-that-keep-it-fair",
    ],
  ],
  ["Can I take the cash instead of the prize?", ["/docs/competitions#cash-alternatives"]],
  ["How do I withdraw my winnings?", ["/docs/competitions#claiming-a-prize", "/docs/competitions#cash-alternatives"]],
  ["How will I know if I've won?", ["/docs/getting-started#after-the-draw", "/docs/competitions#claiming-a-prize"]],
  [
    "Do you deliver outside the UK?",
    ["/docs/legal/terms-and-conditions#prizes", "/docs/competitions#claiming-a-prize"],
  ],
  [
    "How old do I have to be?",
    [
      "/docs#who-can-take-part",
      "/docs/legal/terms-and-conditions#eligibility",
      "/docs/responsible-play#under-18s",
      "/docs/getting-started#create-your-account",
    ],
  ],
  ["Can I withdraw my credit?", ["/docs/credits#the-basics", "/docs/legal/terms-and-conditions#credit"]],
  ["Does my credit expire?", ["/docs/credits#the-basics"]],
  ["What's the minimum top-up?", ["/docs/credits#topping-up", "/docs/getting-started#add-credit"]],
  ["How do I top up?", ["/docs/credits#topping-up", "/docs/getting-started#add-credit"]],
  ["Can I pay with a credit card?", ["/docs/credits#paying-by-credit-card"]],
  ["How do I set a spending limit?", ["/docs/responsible-play#monthly-limit"]],
  ["How do I set a deposit limit?", ["/docs/responsible-play#monthly-limit"]],
  ["I need a break from playing", ["/docs/responsible-play#take-a-break"]],
  ["How do I self-exclude?", ["/docs/responsible-play#self-exclusion"]],
  ["How do I delete my account?", ["/docs/responsible-play#close-your-account"]],
  ["Where can I get help with my gambling?", ["/docs/responsible-play#independent-help"]],
  [
    "How do I get free spins on the wheel?",
    ["/docs/labspinner#spin-for-free-by-post", "/docs/labspinner#earning-spin-credits"],
  ],
  [
    "Is the spinner fair?",
    [
      "/docs/labspinner#how-a-result-is-decided",
      "/docs/labspinner#the-published-odds",
      "/docs/labspinner#verify-your-spins",
    ],
  ],
  ["What are my chances of winning?", ["/docs/competitions#your-odds", "/docs/how-it-works#your-odds"]],
  ["What is an instant win?", ["/docs/how-it-works#instant-wins"]],
  ["How do I make a complaint?", ["/docs/legal/code-of-practice#12-complaints-and-dispute-resolution"]],
  ["How long does approval take?", ["/docs/getting-started#wait-for-approval"]],
  ["How do I log in without a password?", ["/docs/getting-started#sign-in-without-your-password"]],
  ["Do I get anything for referring a friend?", ["/docs/credits#inviting-a-friend"]],
  ["Can I stay anonymous if I win?", ["/docs/competitions#winners-and-your-name"]],
  ["Can I watch the draw live?", ["/docs/fair-draws#watch-a-draw-live"]],
  [
    "What happens if a competition is cancelled?",
    ["/docs/how-it-works#if-a-competition-is-cancelled", "/docs/credits#refunds"],
  ],
  [
    "When is the draw?",
    [
      "/docs/competitions#dates",
      "/docs/competitions#when-a-competition-is-drawn",
      "/docs/getting-started#after-the-draw",
    ],
  ],
  ["Does a postal entry have the same chance as a paid one?", ["/docs/competitions#free-entry-by-post"]],
  ["How many tickets do I get for one letter?", ["/docs/competitions#how-many-tickets-a-letter-gets"]],
  ["Do I need to answer a question to enter?", ["/docs/competitions#skill-questions"]],
  ["Do you sell my data?", ["/docs/legal/privacy-policy#who-we-share-it-with"]],
];

/** The questions whose first passage is not one that answers them. */
function misses(): string[] {
  return QUESTIONS.flatMap(([question, answeredBy]) => {
    const reply = answer(question, retrieve);
    const first = reply.kind === "docs" ? reply.passages[0].href : reply.kind;
    return answeredBy.includes(first) ? [] : [`${question} → ${first}`];
  });
}

// Today's figure: 37 of the 41 answered first. A change to the docs or the ranking may move a question; it may not
// lower the count (the four misses are named in the failure).
const ANSWERED_FIRST_AT_LEAST = 37;

describe("the help assistant on players' questions", () => {
  it(`puts the answering passage first for at least ${ANSWERED_FIRST_AT_LEAST} of ${QUESTIONS.length}`, () => {
    expect(QUESTIONS.length).toBeGreaterThanOrEqual(25);
    const missed = misses();
    expect(QUESTIONS.length - missed.length, missed.join("\n")).toBeGreaterThanOrEqual(ANSWERED_FIRST_AT_LEAST);
  });

  it("answers 'how long until I get my prize' with the claim, verification and delivery steps", () => {
    const [first] = retrieve("how long until I get my prize");
    expect(first.text).toContain("Claimed → Verified");
    expect(first.text).toContain("→ Delivered");
  });

  it("answers 'is the draw rigged' with today's draw method, never the first version's", () => {
    const passages = retrieve("is the draw rigged");
    expect(passages[0].href).toMatch(/^\/docs\/fair-draws(#commit-then-reveal|#verify-a-draw-yourself)?$/);
    expect(passages[0].text).not.toContain("labcash-draw-v1");
  });

  it("says credit is not cash when asked for a refund", () => {
    expect(retrieve("can I get a refund")[0].text).toContain("Credit is not cash and cannot be withdrawn");
  });

  it("gives the postal address as plain text", () => {
    expect(retrieve("where do I send my postal entry")[0].text).toContain(
      "LabCash Free Entry PO Box 4021 Manchester M60 1LC",
    );
  });
});

describe("the passages the assistant can show", () => {
  const records = searchRecords();

  // A backslash stays only as code writes a newline (`\n`, in the ticket list's format).
  it("hold no Markdown: no escapes, table rules, emphasis marks or tags", () => {
    for (const { id, content } of records) {
      expect(content, id).not.toMatch(/\\(?!n\))|\s---\s|\*\*|<\/?(?:sup|br|strong|em|span|div)\b/);
    }
  });

  it("keep what code spans say: the formats in angle brackets have no holes", () => {
    const instantNumbers = records.find((r) => r.id === "/docs/fair-draws#instant-prize-numbers")!;
    expect(instantNumbers.content).toContain("message = instant-win:<competition id>:<counter>");
    expect(instantNumbers.content).toContain("x < 2^48 − (2^48 mod N)");
    for (const { id, content } of records) expect(content, id).not.toMatch(/\b\w+: ,/);
  });

  it("end at a sentence or mark where they were cut", () => {
    for (const { id, content } of records.filter((r) => r.level > 1)) {
      expect(content.length, id).toBeLessThanOrEqual(601);
      if (content.length > 0) expect(content, id).toMatch(/[.!?:)…"]$|[a-z0-9]$/i);
    }
  });
});
