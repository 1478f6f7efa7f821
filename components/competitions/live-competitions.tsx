import Link from "next/link";
import { Trophy } from "lucide-react";
import { buttonClasses } from "@/components/ui/button";
import { listCompetitions } from "@/lib/data/competitions";
import { CompetitionGrid } from "./competition-grid";
import { phaseOf, requestTime } from "./status";

const SHOWN = 6;

/** The home page's live competitions (open now, closing soonest first), with an empty state. */
export async function LiveCompetitions() {
  const now = requestTime();
  const live = (await listCompetitions("live")).filter((c) => phaseOf(c, now) === "live").slice(0, SHOWN);
  if (live.length > 0) return <CompetitionGrid competitions={live} now={now} />;
  return (
    <div className="rounded-2xl border border-dashed border-border px-6 py-12 text-center">
      <Trophy aria-hidden className="mx-auto size-10 text-muted-foreground" />
      <p className="mt-4 text-lg font-semibold">No live competitions right now</p>
      <p className="mx-auto mt-2 max-w-md text-muted-foreground">
        New prizes are being lined up. Create an account now and you will be ready to enter the moment they go live.
      </p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <Link href="/signup" className={buttonClasses("outline", "md")}>
          Sign up free
        </Link>
        <Link href="/winners" className={buttonClasses("ghost", "md")}>
          See past winners
        </Link>
      </div>
    </div>
  );
}
