// The longest question the help assistant reads: a question, not a document. Its own module, without zod, so the
// prompt box in the browser can say the limit without loading the schema library (zod's first use tries `eval`,
// which the site's CSP refuses and reports).
export const PROMPT_MAX = 500;
