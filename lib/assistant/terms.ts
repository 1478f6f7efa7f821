// How the help assistant reads words, in the documentation and in a question alike: lower case, the
// small words that say nothing about a topic dropped, a few endings stripped so "entries", "entered"
// and "entry" meet; and, in a question only, synonyms for the words players use where the docs use others.

// Function words and question words: they match every passage, so they only add noise to the score.
const STOP_WORDS = new Set(
  (
    "a about am an and any are as at be been but by can could did do does doing for from get got had has have " +
    "how i if in into is it its me my of on or our so than that the their them then there these they this to " +
    "too up us was we were what when where which who why will with would you your happen happens happened " +
    "not no does don doesn didn isn t s ve ll m re d need want many much"
  ).split(" "),
);

// Words a player uses, or asks with, where the docs use others: each also finds the docs' words (stemmed below).
const SYNONYMS: Record<string, string[]> = {
  free: ["post"],
  deposit: ["top"],
  withdraw: ["cash"],
  sell: ["sold"],
  money: ["credit"],
  // Doubting a draw is asking how it is made fair and checked.
  rigged: ["fair", "verify", "bias"],
  fixed: ["fair", "verify", "bias"],
  scam: ["fair", "verify"],
  cheat: ["fair", "verify"],
  trust: ["fair", "verify"],
  fair: ["verify", "bias"],
  chance: ["odds"],
  old: ["18", "age"],
  age: ["18"],
  anonymous: ["initials", "name"],
  delete: ["close"],
  refer: ["invite"],
  referral: ["invite"],
  login: ["sign"],
  log: ["sign"],
  wheel: ["labspinner"],
  spin: ["labspinner"],
  // A player knows through what we send: "how will I know if I've won?"
  know: ["mail", "contact"],
  // "When is …?" asks for a date or a time, which a stop word would drop.
  when: ["dates", "time"],
};

// Forms the endings below do not bring together.
const IRREGULAR: Record<string, string> = {
  entry: "enter",
  chosen: "choos",
  choose: "choos",
  chose: "choos",
  won: "win",
  winner: "win",
  drawn: "draw",
  verifi: "verify",
  verification: "verify",
  // The docs' own name for the wheel; "Spinner prize" is its ledger line.
  spinner: "labspinner",
};

/** A tiny stemmer: enough for English plurals and verb endings in our own docs, no more. */
export function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us")) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith("ed")) w = w.slice(0, -2);
  // "winning" → "winn" → "win", "stopped" → "stopp" → "stop".
  if (/([^aeioulsz])\1$/.test(w)) w = w.slice(0, -1);
  return IRREGULAR[w] ?? w;
}

/** The term one word of the documentation stands for (none for a stop word), for MiniSearch's processTerm. */
export function documentTerm(word: string): string | null {
  const lower = word.toLowerCase();
  return STOP_WORDS.has(lower) ? null : stem(lower);
}

// The synonyms by the question word's stem, as the docs' stems.
const SYNONYM_TERMS = new Map(Object.entries(SYNONYMS).map(([word, docsWords]) => [stem(word), docsWords.map(stem)]));

/**
 * The terms one word of a question stands for: its own, and the documentation's words for it. Synonyms widen the
 * question only: widened in the index too, every "sell" in the docs would also count as "sold".
 */
export function questionTerms(word: string): string[] {
  const lower = word.toLowerCase();
  const own = documentTerm(lower);
  const synonyms = SYNONYM_TERMS.get(stem(lower)) ?? [];
  return [...(own === null ? [] : [own]), ...synonyms].filter((t, i, all) => all.indexOf(t) === i);
}
