"use client";

import { useEffect, useState } from "react";
import { CircleAlert, CircleCheck } from "lucide-react";
import { verifyInstantWins, type InstantWinCheck } from "@/lib/instant-wins/derive";
import type { InstantWins } from "@/lib/data/instant-wins";

/** Rebuilds the instant-win numbers from the revealed seed in this browser and checks every award. */
export function InstantWinVerifier({ competitionId, data }: { competitionId: string; data: InstantWins }) {
  const [checks, setChecks] = useState<InstantWinCheck[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    verifyInstantWins(competitionId, data).then(setChecks, () => setFailed(true));
  }, [competitionId, data]);
  const ok = checks !== null && checks.every((c) => c.ok);
  return (
    <div className="mt-6">
      <h3 className="text-lg font-semibold">Instant wins checked in your browser</h3>
      <div role="status" className="mt-2">
        {failed ? (
          <p>Your browser could not run the check.</p>
        ) : checks === null ? (
          <p>Checking the instant wins…</p>
        ) : (
          <>
            <p className="flex items-center gap-2 font-semibold">
              {ok ? (
                <CircleCheck aria-hidden className="size-5 text-primary-text" />
              ) : (
                <CircleAlert aria-hidden className="size-5 text-destructive" />
              )}
              {ok ? "Instant wins verified" : "The instant wins do not match"}
            </p>
            <ul className="mt-2 list-disc pl-5 text-sm">
              {checks.map((c) => (
                <li key={c.label}>
                  {c.ok ? "Matches: " : "Does not match: "}
                  {c.label}
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </div>
  );
}
