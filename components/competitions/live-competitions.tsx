import Link from "next/link";
import { Trophy } from "lucide-react";
import { buttonClasses } from "@/components/ui/button";

// Slot for the live competitions on the home page. The competitions engineer replaces the body of
// this server component with data from lib/data/competitions.ts; until then it shows the empty state.
export async function LiveCompetitions() {
  return (
    <div className="rounded-2xl border border-dashed border-border px-6 py-12 text-center">
      <Trophy aria-hidden className="mx-auto size-10 text-muted-foreground" />
      <p className="mt-4 text-lg font-semibold">No live competitions right now</p>
      <p className="mx-auto mt-2 max-w-md text-muted-foreground">
        The first prizes are being lined up. Create an account now and you will be ready to enter the moment they go live.
      </p>
      <Link href="/signup" className={buttonClasses("outline", "md", "mt-6")}>
        Sign up free
      </Link>
    </div>
  );
}
