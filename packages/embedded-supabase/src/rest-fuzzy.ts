// The fuzzy match PostgREST uses for "Perhaps you meant …" hints (the Haskell port of fuzzyset.js: n-gram
// cosine similarity for grams of 3 then 2 characters, the best 50 re-scored by Levenshtein distance).

const NON_WORD = /[^a-zA-Z0-9\u00C0-\u00FF, ]+/g;

function gramCounts(value: string, size: number): Map<string, number> {
  let simplified = `-${value.toLowerCase().replace(NON_WORD, "")}-`;
  while (simplified.length < size) simplified += "-";
  const counts = new Map<string, number>();
  for (let i = 0; i + size <= simplified.length; i++) {
    const gram = simplified.slice(i, i + size);
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}

function norm(counts: Map<string, number>): number {
  let sum = 0;
  for (const n of counts.values()) sum += n * n;
  return Math.sqrt(sum);
}

function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/** The candidate closest to `value` scoring at least `minScore`, as fuzzyset's getOne answers. */
export function closestMatch(candidates: string[], value: string, minScore: number): string | undefined {
  const query = value.toLowerCase();
  for (const size of [3, 2]) {
    const queryGrams = gramCounts(query, size);
    const queryNorm = norm(queryGrams);
    const scored: [number, string][] = [];
    for (const candidate of new Set(candidates)) {
      const grams = gramCounts(candidate, size);
      let dot = 0;
      for (const [gram, n] of queryGrams) dot += n * (grams.get(gram) ?? 0);
      if (dot > 0) scored.push([dot / (queryNorm * norm(grams)), candidate]);
    }
    if (!scored.length) continue;
    scored.sort((a, b) => b[0] - a[0]);
    const rescored = scored.slice(0, 50).map(([, candidate]): [number, string] => {
      const lower = candidate.toLowerCase();
      return [1 - levenshtein(lower, query) / Math.max(lower.length, query.length), candidate];
    });
    rescored.sort((a, b) => b[0] - a[0]);
    const best = rescored.find(([score]) => score >= minScore);
    if (best) return best[1];
  }
  return undefined;
}
