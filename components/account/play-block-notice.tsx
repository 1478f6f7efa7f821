import { Link } from "@/components/ui/link";
import type { ReactNode } from "react";
import { Alert, AlertTitle } from "@/components/ui/alert";

/** What stops a player playing now, as SQL's private.play_block answers it (the message carries any end date). */
export type PlayBlock = { code: string; message: string };

/** The blocks a player chose (code of practice 1.5): their own settings on Responsible play say until when and why. */
const CHOSEN_BLOCKS = new Set(["on_break", "self_excluded", "account_closed"]);

/**
 * A calm notice in place of a form that could only refuse (an entry, a spin): what holds and until when,
 * what it pauses (`children`) and, for a break, exclusion or closure, the way to Responsible play. Part of
 * the page rather than news, so it is not a live region; the server still refuses if it is bypassed.
 */
export function PlayBlockNotice({ block, children }: { block: PlayBlock; children: ReactNode }) {
  return (
    <Alert variant="info" announce={false} data-testid="play-block-notice" className="flex flex-col gap-1 p-4">
      <AlertTitle className="text-base">{block.message}</AlertTitle>
      <p>{children}</p>
      {CHOSEN_BLOCKS.has(block.code) ? (
        <Link href="/account/responsible-play" className="self-start pt-1 font-medium underline underline-offset-4">
          Responsible play
        </Link>
      ) : null}
    </Alert>
  );
}
