// The questions the help assistant never answers: a player's own account data. The docs cannot know
// it and a guess would be wrong, so these get a fixed answer that says where to look (docs/decisions/041). A question
// counts when it asks about the asker's own state ("what is my balance", "how much credit do I have", "did I win") and
// names a kind of account data; "how do I …" questions are about how the site works and go to the docs, whatever they
// mention.

export type AccountPointer = { text: string; href: string; place: string };

// Asking about one's own state, not how something works.
const ABOUT_ME =
  /\b(what(?:'s| is| are| was| were)? my|where(?:'s| is| are) my|show(?: me)? my|check my|see my|is my|are my|how (?:much|many)\b.*\b(?:i|i've)\b(?: got| have| had| left| spent| entered| won)|did i|have i|am i|do i have|my (?:current|remaining))\b/;
const HOW_TO = /^\s*(how (?:do|can|should|would) (?:i|you|we)|how to|can i|what happens|is it possible)\b/;

// Which kind of account data, and where it is, in the order they are tried.
const PLACES: { words: RegExp; pointer: AccountPointer }[] = [
  {
    words: /\b(balance|credit|credits|money|ledger|top[- ]?ups?|spent|bonus)\b/,
    pointer: {
      place: "Account › Credits",
      href: "/account/credits",
      text: "Your balance and every credit movement are on Account › Credits.",
    },
  },
  {
    words: /\b(limit|limits|break|self[- ]?exclu\w*|excluded)\b/,
    pointer: {
      place: "Account › Responsible play",
      href: "/account/responsible-play",
      text: "Your limit, and any break or exclusion, are on Account › Responsible play.",
    },
  },
  {
    words: /\b(win|won|wins|winner|winnings|prize|prizes|claim)\b/,
    pointer: {
      place: "Account › My prizes",
      href: "/account/prizes",
      text: "What you have won, and your claims, are on Account › My prizes.",
    },
  },
  {
    words: /\b(entries|entry|entered|tickets?|ticket numbers?)\b/,
    pointer: {
      place: "Account › My entries",
      href: "/account/entries",
      text: "Your entries and ticket numbers are on Account › My entries.",
    },
  },
  {
    words: /\b(kyc|identity|id|verified|verification|approved|approval|status|account)\b/,
    pointer: {
      place: "Account",
      href: "/account",
      text: "Your account's status and any checks we are waiting for are on your Account dashboard.",
    },
  },
  {
    words: /\b(complaints?|reference)\b/,
    pointer: {
      place: "Account › Complaints",
      href: "/account/complaints",
      text: "Your complaints and their answers are on Account › Complaints.",
    },
  },
  {
    words: /\b(name|address|e-?mail|password|profile|details|two[- ]step)\b/,
    pointer: { place: "Account › Profile", href: "/account/profile", text: "Your details are on Account › Profile." },
  },
];

/** Where to look when the question is about the asker's own account; null when the docs can answer it. */
export function accountQuestion(question: string): AccountPointer | null {
  const q = question.toLowerCase().replace(/[’‘]/g, "'");
  if (HOW_TO.test(q) || !ABOUT_ME.test(q)) return null;
  return PLACES.find((p) => p.words.test(q))?.pointer ?? null;
}
