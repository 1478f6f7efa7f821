// Crawlers, link-preview fetchers and headless tools: they get a plain status response instead of
// the error page (spec §2 "Bots never get the error page"). Pure, so proxy.ts and pages can share it.
const BOT_PATTERN =
  /bot\b|bot\/|crawler|crawling|spider|slurp|bingpreview|facebookexternalhit|facebookcatalog|embedly|quora link preview|outbrain|pinterest|vkshare|w3c_validator|whatsapp|telegrambot|discordbot|slackbot|linkedinbot|twitterbot|applebot|googlebot|google-inspectiontool|adsbot|mediapartners|yandex|baiduspider|duckduckbot|sogou|exabot|ia_archiver|archive\.org_bot|petalbot|semrush|ahrefs|mj12bot|dotbot|bytespider|gptbot|chatgpt-user|oai-searchbot|claudebot|claude-web|anthropic-ai|perplexitybot|ccbot|amazonbot|phantomjs|python-requests|python-urllib|curl\/|wget\/|go-http-client|java\/|okhttp|axios\/|node-fetch|libwww-perl|httpclient|scrapy|uptimerobot|pingdom|statuscake/i;

/** True when the user-agent string belongs to a crawler or an automated client (headless browsers used for testing and Lighthouse are not counted). A missing user-agent counts as a bot. */
export function isBot(userAgent: string | null | undefined): boolean {
  if (!userAgent || !userAgent.trim()) return true;
  return BOT_PATTERN.test(userAgent);
}
