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
import { KIND_LABELS, NOTIFICATION_KINDS } from "@/lib/notifications/kinds";

/** The worker that receives pushes: the site's own (public/sw.js imports /sw-push.js) once the lead wires it. */
const WORKER = "/sw.js";

type BrowserState = "unsupported" | "denied" | "off" | "on";

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
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !publicKey) return "unsupported";
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
}: {
  publicKey: string | null;
  settings: { kinds: string[]; endpoints: string[] };
}) {
  const kinds = useFormAction(setPushKindsAction);
  const [browser, setBrowser] = useState<BrowserState>("off");
  const [result, setResult] = useState<ActionResult | null>(null);
  const [pending, startTransition] = useTransition();

  useEffect(() => {
    void detect(publicKey, settings.endpoints).then(setBrowser);
  }, [publicKey, settings.endpoints]);

  const turnOn = () =>
    startTransition(async () => {
      const registration = await navigator.serviceWorker.register(WORKER).catch(() => null);
      if (!registration) {
        setResult({ ok: false, error: "Push could not start in this browser. Try again later." });
        return;
      }
      await navigator.serviceWorker.ready;
      if ((await Notification.requestPermission()) !== "granted") {
        setBrowser("denied");
        return;
      }
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: publicKey!,
      });
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
      await subscription.unsubscribe();
      setResult(removed);
      setBrowser("off");
    });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Push notifications</CardTitle>
        <CardDescription>
          Choose what to receive on this device even when LabCash is closed. While you are on a break or excluded, only
          messages about your money, prizes, account and complaints are pushed.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <form {...kinds.form} className="space-y-3">
          <fieldset className="space-y-2">
            <legend className="font-medium">Push me about</legend>
            {NOTIFICATION_KINDS.map((kind) => (
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
        {browser === "unsupported" ? (
          <p className="text-muted-foreground">This browser cannot receive push notifications.</p>
        ) : browser === "denied" ? (
          <p className="text-muted-foreground">
            Notifications are blocked for this site in your browser&apos;s settings.
          </p>
        ) : browser === "on" ? (
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
