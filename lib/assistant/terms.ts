// How the help assistant reads words, in the documentation and in a question alike: lower case, the
// small words that say nothing about a topic dropped, a few endings stripped so "entries", "entered"
// and "entry" meet, and a handful of synonyms for the words players use where the docs use others.

// Function words and question words: they match every passage, so they only add noise to the score.
const STOP_WORDS = new Set(
  (
    "a about am an and any are as at be been but by can could did do does doing for from get got had has have " +
    "how i if in into is it its me my of on or our so than that the their them then there these they this to " +
    "too up us was we were what when where which who why will with would you your happen happens happened " +
    "not no does don t s"
  ).split(" "),
);

// Words a player uses for what the docs call something else. Each maps to extra stems it should also find.
const SYNONYMS: Record<string, string[]> = {
  free: ["post"],
  deposit: ["top"],
  withdraw: ["cash"],
  win: ["prize", "claim"],
  sell: ["sold"],
  money: ["credit"],
};

// Forms the endings above do not bring together.
const IRREGULAR: Record<string, string> = { entry: "enter", chosen: "choos", choose: "choos", chose: "choos" };

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

/** The terms one word of text stands for (none for a stop word), for MiniSearch's processTerm. */
export function terms(word: string): string[] {
  const lower = word.toLowerCase();
  if (STOP_WORDS.has(lower)) return [];
  const root = stem(lower);
  return [root, ...(SYNONYMS[root] ?? [])].filter((t, i, all) => all.indexOf(t) === i);
}
