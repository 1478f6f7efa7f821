"use client";

import dynamic from "next/dynamic";
import type { ActionResult } from "@/lib/actions/result";

/** The CAPTCHA, loaded only when a form needs it (components/forms/captcha-check.tsx). */
export const CaptchaCheck = dynamic(() => import("./captcha-check"), { ssr: false });

/** Whether the server asked this form for the CAPTCHA (past the e-mail thresholds, lib/auth/captcha.ts). */
export function needsCaptcha(result: ActionResult<unknown> | null): boolean {
  return result?.ok === false && result.code === "captcha_required";
}
