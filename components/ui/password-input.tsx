"use client";

import { Eye, EyeOff } from "lucide-react";
import { useId, useState, type ComponentProps } from "react";
import { cn } from "@/lib/utils";
import { controlClasses } from "./input";

/**
 * A password input with a button that shows or hides what was typed (spec §9: "Show password" /
 * "Hide password"). The button is named by its own (visually hidden) text, not aria-label, so the
 * input's <label> stays the only label on the page that says "Password". It is type="button", so it
 * never submits the form, and focus stays on it after a click or a key press.
 */
export function PasswordInput({ className, id, ...props }: Omit<ComponentProps<"input">, "type">) {
  const fallbackId = useId();
  const inputId = id ?? fallbackId;
  const [visible, setVisible] = useState(false);
  const Icon = visible ? EyeOff : Eye;
  return (
    <div className={cn("relative", className)}>
      <input
        id={inputId}
        type={visible ? "text" : "password"}
        className={cn(controlClasses, "pr-11 pl-3")}
        {...props}
      />
      <button
        type="button"
        aria-controls={inputId}
        onClick={() => setVisible((shown) => !shown)}
        className="absolute inset-y-0 right-0 inline-flex w-10 items-center justify-center rounded-r-md text-muted-foreground hover:text-foreground"
      >
        <Icon aria-hidden className="size-4" />
        <span className="sr-only">{visible ? "Hide password" : "Show password"}</span>
      </button>
    </div>
  );
}
