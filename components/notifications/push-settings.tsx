"use client";

import { useEffect, useState, useTransition } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { CheckboxField } from "@/components/ui/field";
import {
  deletePushSubscriptionAction,
  savePushSubscriptionAction,
  setPushKindsAction,
} from "@/lib/actions/notifications";
import type { ActionResult } from "@/lib/actions/result";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { ADMIN_NOTIFICATION_KINDS, KIND_LABELS, NOTIFICATION_KINDS } from "@/lib/notifications/kinds";

/** The worker that receives pushes: the site's own (app/sw.js/route.ts imports /sw-push.js). */
const WORKER = "/sw.js";

/** "checking" until the browser has answered, so no button is offered that the browser then takes back. */
type BrowserState = "checking" | "site-off" | "unsupported" | "denied" | "off" | "on";

const BROWSER_WORDS: Partial<Record<BrowserState, string>> = {
  "site-off": "Push notifications are not available on LabCash at the moment. Your notifications are all listed above.",
  unsupported:
    "This browser cannot receive push notifications. Your choices above apply to the browsers where you turn push on.",
  denied: "Notifications are blocked for this site in this browser's settings. Allow them there to turn push on here.",
};

function subscriptionForm(subscription: PushSubscription): FormData {
  const json = subscription.toJSON();
  const form = new FormData();
  form.set("endpoint", json.endpoint ?? "");
  form.set("p256dh", json.keys?.p256dh ?? "");
  form.set("auth", json.keys?.auth ?? "");
  return form;
}

/** What this browser can do and whether it is subscribed for this player. */
async function detect(publicKey: string | null, endpoints: string[]): Promise<BrowserState> {
  if (!publicKey) return "site-off";
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window))
    return "unsupported";
  if (Notification.permission === "denied") return "denied";
  const registration = await navigator.serviceWorker.getRegistration(WORKER);
  const subscription = await registration?.pushManager.getSubscription();
  return subscription && endpoints.includes(subscription.endpoint) ? "on" : "off";
}

/**
 * Web push on /account/notifications: which kinds to push (stored in SQL for the player), and this browser's
 * subscription (PushManager, stored in SQL per endpoint, removable). Nothing is asked of the browser until the
 * player presses "Turn on push in this browser".
 */
export function PushSettings({
  publicKey,
  settings,
  admin,
}: {
  publicKey: string | null;
  settings: { kinds: string[]; endpoints: string[] };
  /** Admins are also offered what only admins are sent (new sign-ups waiting for approval). */
  admin: boolean;
}) {
  const kinds = useFormAction(setPushKindsAction);
  const [browser, setBrowser] = useState<BrowserState>("checking");
  const [result, setResult] = useState<ActionResult | null>(null);
  const [pending, startTransition] = useTransition();

  useEffect(() => {
    detect(publicKey, settings.endpoints).then(setBrowser, () => setBrowser("unsupported"));
  }, [publicKey, settings.endpoints]);

  const turnOn = () =>
    startTransition(async () => {
      if ((await Notification.requestPermission()) !== "granted") {
        setBrowser("denied");
        return;
      }
      // The browser's push service may refuse (none configured, offline, a private window): said beside the
      // button rather than thrown, which would take the whole page to the error screen.
      const subscription = await navigator.serviceWorker
        .register(WORKER)
        .then(() => navigator.serviceWorker.ready)
        .then((registration) =>
          registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: publicKey! }),
        )
        .catch(() => null);
      if (!subscription) {
        setResult({ ok: false, error: "Push could not start in this browser. Try again later." });
        return;
      }
      const saved = await savePushSubscriptionAction(null, subscriptionForm(subscription));
      setResult(saved);
      if (saved.ok) setBrowser("on");
    });

  const turnOff = () =>
    startTransition(async () => {
      const registration = await navigator.serviceWorker.getRegistration(WORKER);
      const subscription = await registration?.pushManager.getSubscription();
      if (!subscription) return setBrowser("off");
      const removed = await deletePushSubscriptionAction(null, subscriptionForm(subscription));
      // Forgotten here whatever the push service says: the server no longer sends to it.
      await subscription.unsubscribe().catch(() => false);
      setResult(removed);
      setBrowser("off");
    });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Push notifications</CardTitle>
        <CardDescription>
          Choose what to receive as push notifications, even when LabCash is closed, on each browser where you turn push
          on. While you are on a break or excluded, only messages about your money, prizes, account and complaints are
          pushed.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <form {...kinds.form} className="space-y-3">
          <fieldset className="space-y-2">
            <legend className="font-medium">Push me about</legend>
            {NOTIFICATION_KINDS.filter((kind) => admin || !ADMIN_NOTIFICATION_KINDS.includes(kind)).map((kind) => (
              <CheckboxField
                key={kind}
                id={`push-${kind}`}
                name="kinds"
                value={kind}
                label={KIND_LABELS[kind]}
                defaultChecked={settings.kinds.includes(kind)}
              />
            ))}
          </fieldset>
          <Button type="submit" size="sm" disabled={kinds.pending}>
            Save push choices
          </Button>
          <FormStatus result={kinds.result} formErrors={kinds.formErrors} />
        </form>
        {BROWSER_WORDS[browser] ? (
          <p className="text-muted-foreground">{BROWSER_WORDS[browser]}</p>
        ) : browser === "checking" ? null : browser === "on" ? (
          <Button type="button" variant="outline" size="sm" onClick={turnOff} disabled={pending}>
            Turn off push in this browser
          </Button>
        ) : (
          <Button type="button" size="sm" onClick={turnOn} disabled={pending}>
            Turn on push in this browser
          </Button>
        )}
        <FormStatus result={result} />
      </CardContent>
    </Card>
  );
}
