import { Link } from "@/components/ui/link";
import { Trophy } from "lucide-react";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import type { Competition } from "@/lib/data/competitions";
import { CompetitionGrid } from "./competition-grid";

/**
 * The home page's live competitions after the featured one (open now, closing soonest first), or, when none is open,
 * an empty state. Their pictures load as usual: the featured prize's is the one the first screen waits for.
 */
export function LiveCompetitions({
  competitions,
  now,
  featuredShown,
}: {
  competitions: Competition[];
  now: number;
  featuredShown: boolean;
}) {
  if (competitions.length > 0) {
    return <CompetitionGrid competitions={competitions} now={now} />;
  }
  if (featuredShown) return <p className="text-muted-foreground">The featured prize is the only one open right now.</p>;
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
