"use client";

import { useSyncExternalStore } from "react";

// A ticking clock shared by every countdown on the page: one interval, whole seconds.
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void) {
  listeners.add(listener);
  timer ??= setInterval(() => listeners.forEach((l) => l()), 1000);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}
const nowInSeconds = () => Math.floor(Date.now() / 1000);
// The server's clock is not the browser's: render no figures until hydrated.
const noTimeOnServer = () => null;

function parts(ms: number): [string, number][] {
  let rest = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(rest / 86_400);
  rest -= days * 86_400;
  const hours = Math.floor(rest / 3600);
  rest -= hours * 3600;
  const minutes = Math.floor(rest / 60);
  return [
    ["d", days],
    ["h", hours],
    ["m", minutes],
    ["s", rest - minutes * 60],
  ];
}

/**
 * Time left until `to`, e.g. "2d 04h 09m 31s", then `endedLabel`. Until hydration it shows
 * `fallback` (the absolute time), so the server and browser render the same HTML.
 */
export function Countdown({
  to,
  label,
  endedLabel,
  fallback,
  className,
}: {
  to: string;
  label: string;
  endedLabel: string;
  fallback: string;
  className?: string;
}) {
  const now = useSyncExternalStore(subscribe, nowInSeconds, noTimeOnServer);
  const left = Date.parse(to) - (now ?? 0) * 1000;
  if (now !== null && left <= 0) {
    return (
      <p className={className}>
        <span className="font-semibold">{endedLabel}</span>
      </p>
    );
  }
  return (
    <p className={className}>
      <span className="text-muted-foreground">{label} </span>
      <time dateTime={to} className="font-semibold tabular-nums">
        {now === null
          ? fallback
          : parts(left)
              .filter(([unit, value], i, all) => value > 0 || unit === "s" || all.slice(0, i).some(([, v]) => v > 0))
              .map(([unit, value], i) => `${i === 0 ? value : String(value).padStart(2, "0")}${unit}`)
              .join(" ")}
      </time>
    </p>
  );
}
