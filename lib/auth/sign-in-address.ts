import "server-only";
import { cookies, headers } from "next/headers";
import { z } from "zod";
import { sessionCookieOptions } from "@/lib/supabase/cookie-options";

/**
 * The address a sign-in link and code were just sent to, kept for /login/code so the player types only the code
 * (docs/decisions/055). A cookie rather than the URL: an address in a URL lands in the history, server logs and page
 * analytics. Read only by the sign-in pages (path /login), never by scripts, and gone when the code would be.
 */
const COOKIE = "labcash-sign-in-address";
const LIFE_SECONDS = 600; // config.toml's otp_expiry: the code it names expires with it

export async function rememberSignInAddress(email: string): Promise<void> {
  const { secure } = sessionCookieOptions((await headers()).get("x-forwarded-proto"));
  (await cookies()).set(COOKIE, email, {
    path: "/login",
    maxAge: LIFE_SECONDS,
    httpOnly: true,
    sameSite: "lax",
    secure,
  });
}

/** The remembered address, when it still reads as one (a cookie is the visitor's to change). */
export async function rememberedSignInAddress(): Promise<string | undefined> {
  const parsed = z
    .email()
    .max(320)
    .safeParse((await cookies()).get(COOKIE)?.value);
  return parsed.success ? parsed.data : undefined;
}

export async function forgetSignInAddress(): Promise<void> {
  (await cookies()).delete({ name: COOKIE, path: "/login" });
}
