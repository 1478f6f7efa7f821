import "server-only";
import type { EmailOtpType, User } from "@supabase/supabase-js";
import { clearEmailCodeTries, takeEmailCodeTry } from "@/lib/data/email-codes";
import { countAuthRefusal } from "@/lib/observability/auth-refusals";
import { createClient } from "@/lib/supabase/server";

/** What checking an e-mailed code came to; `void` when five have been typed for the address's outstanding code. */
export type EmailCodeCheck =
  | { ok: true; user: User | null }
  | { ok: false; refusal: "void" | "wrong" | "rate_limited" }
  | { ok: false; refusal: "other"; message: string };

/**
 * Has the auth server check a code e-mailed to `email` (typed into /login/code or carried by an e-mail's link) and,
 * when it is right, sign the visitor in. Every code is counted against the address in SQL before the auth server
 * sees it, whichever visitor sends it and by whichever door: after five the code is void until a new one is sent, so
 * no number of visitors can guess it. A right code ends the count.
 */
export async function checkEmailCode(email: string, code: string, type: EmailOtpType): Promise<EmailCodeCheck> {
  const triesLeft = await takeEmailCodeTry(email);
  if (triesLeft === 0) return { ok: false, refusal: "void" };
  const supabase = await createClient();
  const { data, error } = await supabase.auth.verifyOtp({ email, token: code, type });
  if (error) {
    await countAuthRefusal("sign_in", error.code);
    // That was the code's last try: it is void now, even for the right code.
    if (error.code === "otp_expired") return { ok: false, refusal: triesLeft === 1 ? "void" : "wrong" };
    if (error.code === "over_request_rate_limit") return { ok: false, refusal: "rate_limited" };
    return { ok: false, refusal: "other", message: error.message };
  }
  await clearEmailCodeTries(email);
  return { ok: true, user: data.user };
}
