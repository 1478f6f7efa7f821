"use client";

import { useEffect, useState } from "react";

const UNITS = [
  ["days", 86_400_000],
  ["hours", 3_600_000],
  ["minutes", 60_000],
  ["seconds", 1000],
] as const;

function parts(ms: number) {
  let rest = Math.max(0, ms);
  return UNITS.map(([label, size]) => {
    const value = Math.floor(rest / size);
    rest -= value * size;
    return { label, value };
  });
}

/** Counts down to launch; disappears once the moment has passed. */
export function LaunchCountdown({ launchAt }: { launchAt: string }) {
  const target = new Date(launchAt).getTime();
  // The clock differs between server and browser: show the numbers only once mounted.
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    const tick = () => setNow(Date.now());
    const first = setTimeout(tick, 0); // first reading straight after mount, then every second
    const timer = setInterval(tick, 1000);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, []);

  if (now !== null && now >= target) return null;
  const shown = now === null ? null : parts(target - now);
  const date = new Intl.DateTimeFormat("en-GB", {
    dateStyle: "full",
    timeStyle: "short",
    timeZone: "Europe/London",
  }).format(target);

  return (
    <section aria-labelledby="launch-title" className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
      <div className="rounded-2xl border border-border bg-primary-soft px-6 py-10 text-center">
        <h2 id="launch-title" className="text-2xl font-bold tracking-tight sm:text-3xl">
          The first competitions launch soon
        </h2>
        <p className="mt-2 text-muted-foreground">
          Doors open on <time dateTime={launchAt}>{date}</time>.
        </p>
        <dl className="mx-auto mt-8 grid max-w-lg grid-cols-4 gap-3" aria-live="off">
          {(shown ?? UNITS.map(([label]) => ({ label, value: null }))).map(({ label, value }) => (
            <div key={label} className="rounded-xl bg-background p-3 shadow-sm">
              <dt className="text-xs text-muted-foreground uppercase">{label}</dt>
              <dd className="text-2xl font-extrabold tabular-nums sm:text-3xl">
                {value === null ? "–" : String(value).padStart(2, "0")}
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}
