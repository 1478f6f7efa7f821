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

/** One leg of a countdown: the moment, what it is ("Closes in") and the absolute time shown before hydration. */
export type CountdownLeg = { to: string; label: string; fallback: string };

/**
 * Time left until `to`, e.g. "2d 04h 09m 31s"; once it passes, the time left until `then` (the close,
 * then the draw) if given; after the last, `endedLabel`. Until hydration it shows the first leg's
 * `fallback` (the absolute time), so the server and browser render the same HTML.
 */
export function Countdown({
  to,
  label,
  fallback,
  then,
  endedLabel,
  className,
}: CountdownLeg & {
  then?: CountdownLeg;
  endedLabel: string;
  className?: string;
}) {
  const now = useSyncExternalStore(subscribe, nowInSeconds, noTimeOnServer);
  const nowMs = (now ?? 0) * 1000;
  const leg = now !== null && then && Date.parse(to) <= nowMs ? then : { to, label, fallback };
  const left = Date.parse(leg.to) - nowMs;
  if (now !== null && left <= 0) {
    return (
      <p className={className}>
        <span className="font-semibold">{endedLabel}</span>
      </p>
    );
  }
  return (
    <p className={className}>
      <span className="text-muted-foreground">{leg.label} </span>
      <time dateTime={leg.to} className="font-semibold tabular-nums">
        {now === null
          ? leg.fallback
          : parts(left)
              .filter(([unit, value], i, all) => value > 0 || unit === "s" || all.slice(0, i).some(([, v]) => v > 0))
              .map(([unit, value], i) => `${i === 0 ? value : String(value).padStart(2, "0")}${unit}`)
              .join(" ")}
      </time>
    </p>
  );
}
