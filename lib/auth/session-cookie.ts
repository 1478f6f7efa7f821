// Whether this browser holds a Supabase session cookie (`sb-<ref>-auth-token`, or its chunks `.0`,
// `.1`…). @supabase/ssr writes it readable by scripts, so a static page can tell, before any
// request, whether to ask the server who the visitor is: signed-out visitors never wait for it.
// It only says "maybe signed in"; the server decides (an expired session reads as signed out).
const SESSION_COOKIE = /(?:^|; )sb-[^=;]+-auth-token(?:\.\d+)?=/;

/** The attribute on <html> that says "a session cookie is present" (CSS hides the sign-in links). */
export const SESSION_ATTRIBUTE = "data-session";

export const hasSessionCookie = () => SESSION_COOKIE.test(document.cookie);

/** The same test on a request's cookies (the proxy: no session cookie, no session work). */
export const hasSessionCookieIn = (cookies: { name: string }[]) =>
  cookies.some(({ name }) => /^sb-[^=;]+-auth-token(?:\.\d+)?$/.test(name));

/** Inline in <head>: marks <html> before the first paint, so signed-in visitors never see "Sign in" flash. */
export const sessionMarkerScript = `${SESSION_COOKIE}.test(document.cookie)&&document.documentElement.setAttribute("${SESSION_ATTRIBUTE}","")`;
