// Who may reach the embedded backend, and where its links may lead. Its keys
// are published, so anything a web page could make a developer's browser send it must be refused:
// another origin reading its answers (CORS), a page on a rebound DNS name (Host), a key in a URL
// (it would ride along in any link), and a link that leads off the site (redirect_to).

const LOOPBACK_NAMES = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

export function isLoopback(host: string): boolean {
  return LOOPBACK_NAMES.has(host.toLowerCase()) || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * The Host header must name this server by its loopback address and port: a DNS-rebinding page
 * (evil.example resolving to 127.0.0.1) sends its own name.
 */
export function hostAllowed(hostHeader: string | undefined, port: number): boolean {
  if (!hostHeader) return false;
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(hostHeader.trim());
  if (!match) return false;
  return isLoopback(match[1]) && Number(match[2] ?? 80) === port;
}

/** A `*` in an allow-list entry matches any run of characters, as in GoTrue's uri_allow_list globs. */
function globMatches(pattern: string, value: string): boolean {
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${source}$`).test(value);
}

export interface RedirectRules {
  /** GoTrue's SITE_URL: links may lead anywhere on its host. */
  siteUrl: string;
  /** GoTrue's uri_allow_list: further URLs links may lead to (`*` matches anything). */
  allowList: readonly string[];
}

/**
 * GoTrue's isRedirectURLValid: `redirect_to` is used when it is on the site URL's host or matches the
 * allow-list; anything else is dropped, and the link leads to the site URL instead.
 */
export function allowedRedirect(candidate: string | null | undefined, rules: RedirectRules): string | undefined {
  if (!candidate) return undefined;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  if (url.hostname === new URL(rules.siteUrl).hostname) return url.toString();
  return rules.allowList.some((pattern) => globMatches(pattern, candidate)) ? url.toString() : undefined;
}

/** The Origin that may read answers (CORS): the site's own, or an allow-listed URL's. */
export function corsOriginAllowed(origin: string | undefined, rules: RedirectRules): boolean {
  if (!origin) return false;
  const origins = [rules.siteUrl, ...rules.allowList.filter((entry) => !entry.includes("*"))].flatMap((entry) => {
    try {
      return [new URL(entry).origin];
    } catch {
      return [];
    }
  });
  return origins.includes(origin);
}
