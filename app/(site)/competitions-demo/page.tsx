import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { DemoFlow } from "@/components/competitions/demo-flow";
import { WhoCanEnter } from "@/components/competitions/who-can-enter";
import { buttonClasses } from "@/components/ui/button";
import { getPublicPromoter } from "@/lib/data/settings";

export const metadata: Metadata = {
  title: "How a competition works (demo)",
  description: "A competition from publication to a verified draw, on sample data in your browser. No account needed.",
};

// Static, regenerated within seconds like the competition pages: it names the promoter, a setting.
export const revalidate = 2;

export default async function CompetitionsDemoPage() {
  const promoter = await getPublicPromoter();
  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
      <header>
        <p className="text-sm font-semibold tracking-wide text-primary-text uppercase">
          Demo · sample data · no account needed
        </p>
        <h1 className="mt-2 text-4xl font-extrabold tracking-tight">How a competition works</h1>
        <p className="mt-3 text-lg text-muted-foreground">
          Follow one sample competition from the moment it goes live to a draw you can check yourself. Everything on
          this page runs in your browser: no credit is spent and nothing is saved.
        </p>
        {/* The real competitions' terms (CAP code 8.17), stated wherever entering is shown. */}
        <WhoCanEnter promoter={promoter} />
      </header>
      <div className="mt-10">
        <DemoFlow />
      </div>
      <div className="mt-10 flex flex-wrap gap-3">
        <Link href="/competitions" className={buttonClasses("primary", "lg")}>
          See the real competitions
        </Link>
        <Link href="/docs/fair-draws" className={buttonClasses("outline", "lg")}>
          Fair draws in full
        </Link>
        <Link href="/docs/competitions#free-entry-by-post" className={buttonClasses("outline", "lg")}>
          Free postal entry
        </Link>
      </div>
    </div>
  );
}
