import { describe, expect, it } from "vitest";
import { NOT_BOTS, isBot } from "@/lib/bots";
import { posts } from "@/lib/content/posts";
import { namesMissingContent } from "@/lib/http/bot-not-found";

// isbot's list decides, except that the headless browsers the tests drive and Lighthouse are people here.
describe("isBot", () => {
  it("counts crawlers, link previews and automated clients as bots", () => {
    for (const userAgent of [
      "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36",
      "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
      "WhatsApp/2.23.20.0",
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
      "curl/8.5.0",
      "python-requests/2.31.0",
      "Wget/1.21.4",
    ])
      expect(isBot(userAgent), userAgent).toBe(true);
  });

  it("counts a missing or blank user agent as a bot", () => {
    expect(isBot(null)).toBe(true);
    expect(isBot(undefined)).toBe(true);
    expect(isBot("  ")).toBe(true);
  });

  it("counts browsers, headless Chrome and Lighthouse as people", () => {
    for (const userAgent of [
      ...NOT_BOTS,
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.6778.33 Safari/537.36",
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36",
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1",
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.6; rv:131.0) Gecko/20100101 Firefox/131.0",
    ])
      expect(isBot(userAgent), userAgent).toBe(false);
  });
});

describe("the content a crawler's bare 404 is for", () => {
  it("names an unknown doc or blog post, never a known one or another page", async () => {
    for (const path of ["/docs/no-such-guide", "/docs/getting-started/nope", "/blog/no-such-post", "/docs/%E0%A4%A"])
      expect([path, await namesMissingContent(path)]).toEqual([path, true]);
    for (const path of ["/docs", "/docs/getting-started", `/blog/${posts[0].slug}`, "/blog", "/competitions"])
      expect([path, await namesMissingContent(path)]).toEqual([path, false]);
  });
});
