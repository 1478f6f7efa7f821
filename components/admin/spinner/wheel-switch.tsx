"use client";

import { useActionState } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { Badge } from "@/components/ui/badge";
import { setWheelEnabled } from "@/lib/actions/admin-spinner";

/** Whether the wheel is on, and the button that switches it (the spinner_enabled setting, audited). */
export function WheelSwitch({ enabled }: { enabled: boolean }) {
  const [result, action] = useActionState(setWheelEnabled, null);
  return (
    <form action={action} aria-label="LabSpinner on or off" className="flex flex-col gap-3">
      <input type="hidden" name="enabled" value={enabled ? "off" : "on"} />
      <div className="flex flex-wrap items-center gap-3">
        <p className="flex items-center gap-2 text-sm">
          The wheel is{" "}
          <Badge variant={enabled ? "success" : "warning"} size="md">
            {enabled ? "On" : "Off"}
          </Badge>
        </p>
        <SubmitButton pendingLabel="Switching…">
          {enabled ? "Switch the wheel off" : "Switch the wheel on"}
        </SubmitButton>
      </div>
      <p className="text-xs text-muted-foreground">
        {enabled
          ? "Switched off, /labspinner says so and nobody can spin; spin credits are kept."
          : "Players cannot spin until it is switched back on; their spin credits are kept."}{" "}
        The same switch is on the Settings page.
      </p>
      <FormStatus result={result} />
    </form>
  );
}
