"use client";

import { useReducer } from "react";
import { Skeleton } from "@/components/ui/skeleton";
import type { MySpinner } from "@/lib/data/spinner";
import { usePersonal } from "@/lib/hooks/use-personal";
import { DemoSpin, type DemoSegment } from "./demo-spin";
import { PlayerSpinner } from "./player-spinner";

/**
 * The personal half of /labspinner, a client island (lib/hooks/use-personal.ts): the page is the
 * same static document for everyone. Signed out it is the demo at once; with a session cookie it
 * holds a placeholder and asks /api/spinner, and asks again whenever the player's spins change.
 */
export function SpinnerPersonal({ segments, enabled }: { segments: DemoSegment[]; enabled: boolean }) {
  const [version, changed] = useReducer((n: number) => n + 1, 0);
  const spinner = usePersonal<MySpinner>("/api/spinner", version);
  if (spinner) return <PlayerSpinner spinner={spinner} onChange={changed} />;
  return (
    <>
      <div role="status" aria-label="Loading your spins" className="hidden flex-col gap-4 [[data-session]_&]:flex">
        <Skeleton className="h-72 w-full" />
        <Skeleton className="h-64 w-full" />
      </div>
      {enabled ? (
        <div className="[[data-session]_&]:hidden">
          <DemoSpin segments={segments} />
        </div>
      ) : null}
    </>
  );
}
