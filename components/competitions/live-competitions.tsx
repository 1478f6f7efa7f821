import { Link } from "@/components/ui/link";
import { Trophy } from "lucide-react";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { listPublicCompetitions } from "@/lib/data/competitions";
import { CompetitionGrid } from "./competition-grid";
import { phaseOf, requestTime } from "@/lib/competitions/status";

const SHOWN = 6;

/** The home page's live competitions (open now, closing soonest first), with an empty state. */
export async function LiveCompetitions() {
  const now = requestTime();
  const live = (await listPublicCompetitions("live")).filter((c) => phaseOf(c, now) === "live").slice(0, SHOWN);
  if (live.length > 0) return <CompetitionGrid competitions={live} now={now} preloadFirstImage />;
  return (
    <EmptyState
      icon={<Trophy />}
      title="No live competitions right now"
      description="New prizes are being lined up. Create an account now and you will be ready to enter the moment they go live."
    >
      <Link href="/signup" className={buttonClasses("outline", "md")}>
        Sign up free
      </Link>
      <Link href="/winners" className={buttonClasses("ghost", "md")}>
        See past winners
      </Link>
    </EmptyState>
  );
}
