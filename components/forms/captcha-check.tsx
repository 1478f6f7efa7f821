"use client";

import { useEffect, useRef, useState } from "react";
import { TURNSTILE_TEST_TOKEN } from "@labcash/embedded-supabase/captcha";
import { CheckboxField } from "@/components/ui/field";
import { loadCaptchaWidget } from "@/lib/actions/auth";

interface Turnstile {
  render(element: HTMLElement, options: { sitekey: string; "response-field-name": string }): string;
}

declare global {
  interface Window {
    turnstile?: Turnstile;
  }
}

const TURNSTILE_SCRIPT = "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit";

/** Cloudflare's script, once per page (added by this bundle's code, which the strict CSP's 'strict-dynamic' allows). */
function loadTurnstile(): Promise<Turnstile> {
  if (window.turnstile) return Promise.resolve(window.turnstile);
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = TURNSTILE_SCRIPT;
    script.async = true;
    script.onload = () => (window.turnstile ? resolve(window.turnstile) : reject(new Error("Turnstile did not load")));
    script.onerror = () => reject(new Error("Turnstile did not load"));
    document.head.append(script);
  });
}

/**
 * The CAPTCHA an e-mail form shows once the server asks for it (code captcha_required), loaded on demand so the
 * pages stay cacheable and script-free until then. Its token goes with the form as `captchaToken`. With Turnstile's
 * test keys (the embedded backend, offline) a tick box stands in for the widget and sends the test token.
 */
export default function CaptchaCheck() {
  const [widget, setWidget] = useState<{ siteKey: string; test: boolean } | null | undefined>(undefined);
  const [failed, setFailed] = useState(false);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    void loadCaptchaWidget(null, new FormData()).then((result) => setWidget(result.ok ? result.data : null));
  }, []);

  useEffect(() => {
    if (!widget || widget.test || !box.current) return;
    const element = box.current;
    loadTurnstile()
      .then((turnstile) =>
        turnstile.render(element, { sitekey: widget.siteKey, "response-field-name": "captchaToken" }),
      )
      .catch(() => setFailed(true));
  }, [widget]);

  if (widget === undefined) return null;
  if (!widget || failed)
    return <p className="text-sm text-destructive">The check could not be loaded. Please try again later.</p>;
  if (widget.test)
    return (
      <CheckboxField
        id="field-captcha"
        name="captchaToken"
        value={TURNSTILE_TEST_TOKEN}
        label="I am a person"
        hint="A stand-in for the CAPTCHA: no CAPTCHA service is set up here."
      />
    );
  return <div ref={box} aria-label="Check that you are a person" role="group" />;
}
