import { checkEmailCode } from "@/lib/auth/email-code";
import { afterSignIn, safeNextPath, SET_PASSWORD_PATH } from "@/lib/auth/paths";
import { redirectTo } from "@/lib/http/redirect";
import { originFromHeaders } from "@/lib/site-url";
import { defineRoute, type RouteInput } from "@/lib/http/define-route";
import { emailLinkSchema } from "@/lib/validation/auth";

const LINK_REFUSED = "That link is invalid or has expired. Please request a new one.";

/**
 * Links in the auth e-mails land here with the address and the code they carry
 * (`?email=…&code=…&type=…&next=…`): the code is checked as one typed into /login/code is, counted against the
 * address first (checkEmailCode), then the visitor is signed in and goes on. A bare token_hash is refused: it names
 * no address, so guesses made as hashes could only be counted per visitor. Every refusal (wrong, spent, expired,
 * void, malformed) is the same page, which asks for a new link.
 */
async function get({ request }: RouteInput<undefined, undefined>) {
  const params = new URL(request.url).searchParams;
  const link = emailLinkSchema.safeParse(Object.fromEntries(params));
  if (link.success) {
    const { email, code, type } = link.data;
    const fallback = type === "recovery" ? "/auth/reset-password" : type === "invite" ? SET_PASSWORD_PATH : "/account";
    const origin = originFromHeaders((name) => request.headers.get(name));
    const next = safeNextPath(link.data.next, fallback, origin);
    const checked = await checkEmailCode(email, code, type);
    if (checked.ok) return redirectTo(afterSignIn(next, checked.user?.factors));
  }
  return redirectTo(`/login?error=${encodeURIComponent(LINK_REFUSED)}`);
}

export const GET = defineRoute({ kind: "html" }, get);
