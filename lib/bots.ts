import { createIsbotFromList, isbotPatterns, list } from "isbot";

// Crawlers, link-preview fetchers and automated clients: they get a plain status response instead of
// the error page (spec §2 "Bots never get the error page"). The list is isbot's (maintained, updated with
// new crawlers); the site's one exception is that the headless browsers tests drive and Lighthouse are
// people here, so their own patterns are taken out of the list. Pure, so proxy.ts and pages can share it.

/** User agents the site treats as people although isbot lists them: a headless Chrome and Lighthouse. */
export const NOT_BOTS = [
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Mobile Safari/537.36 Chrome-Lighthouse",
] as const;

const excluded = new Set(NOT_BOTS.flatMap((userAgent) => isbotPatterns(userAgent)));
const matchesBot = createIsbotFromList(list.filter((pattern) => !excluded.has(pattern)));

/** True when the user-agent string belongs to a crawler or an automated client (headless browsers used for testing and Lighthouse are not counted). A missing user-agent counts as a bot. */
export function isBot(userAgent: string | null | undefined): boolean {
  if (!userAgent || !userAgent.trim()) return true;
  return matchesBot(userAgent);
}
