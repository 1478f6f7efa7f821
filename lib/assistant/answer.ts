// The help assistant's answer to one question: a pointer to the account page for questions about the
// asker's own data, else the documentation's passages that answer it, best first, each with its link.
import { accountQuestion, type AccountPointer } from "./account-questions";
import type { Passage, Retriever } from "./retrieve";

export type AssistantAnswer =
  | { kind: "account"; pointer: AccountPointer }
  // `phrased`: an AI model's answer written from `passages` alone (./phrase.ts), when one is set up.
  | { kind: "docs"; passages: Passage[]; phrased?: string }
  | { kind: "none" };

export function answer(question: string, retrieve: Retriever): AssistantAnswer {
  const pointer = accountQuestion(question);
  if (pointer) return { kind: "account", pointer };
  const passages = retrieve(question);
  return passages.length ? { kind: "docs", passages } : { kind: "none" };
}
