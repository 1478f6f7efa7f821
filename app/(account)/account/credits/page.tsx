import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { Download, History } from "lucide-react";
import {
  LEDGER_PAGE_SIZE,
  ledgerCsvHref,
  monthStart,
  newerHref,
  olderHref,
  parseLedgerQuery,
  type SearchParams,
} from "@/lib/account/ledger-filters";
import { LedgerFilterForm } from "@/components/account/ledger-filter-form";
import { LedgerTable, formatSignedGBP } from "@/components/account/ledger-table";
import { IgnoredFilters } from "@/components/forms/ignored-filters";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { requireUser } from "@/lib/auth/session";
import { getMyLedgerPage } from "@/lib/data/account";
import { formatGBP } from "@/lib/format";
import { NEWER_OLDER, Pagination } from "@/components/ui/pagination";

export const metadata: Metadata = { title: "Credit balance", robots: { index: false } };

export default async function CreditsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const account = await requireUser("/account/credits");
  const { query, ignored } = parseLedgerQuery(await searchParams);
  const ledger = await getMyLedgerPage(
    { kind: query.kind, monthStart: monthStart(query.month) },
    query.before,
    LEDGER_PAGE_SIZE,
  );
  const newer = newerHref(query);
  const older = olderHref(query, ledger.next_before);
  const filtered = query.kind !== null || query.month !== null;
  return (
    <section className="flex flex-col gap-6">
      <PageHeader
        title="Credit balance"
        actions={
          account.approved ? (
            <Link href="/credit" className={buttonClasses("primary", "md")}>
              Add credit
            </Link>
          ) : null
        }
      />
      <p className="text-4xl font-bold" data-testid="credit-balance">
        {formatGBP(account.credits)}
      </p>
      <p className="text-sm text-muted-foreground">
        1 credit = £1. Credit never expires and cannot be withdrawn as cash.
        {account.approved ? null : " You can add credit once your account is approved."}
      </p>

      <div className="flex flex-wrap items-center justify-between gap-4">
        <h2 className="text-xl font-semibold">History</h2>
        <a href={ledgerCsvHref(query)} className={buttonClasses("outline", "md")} download>
          <Download aria-hidden />
          Download CSV
        </a>
      </div>
      <LedgerFilterForm filters={query} />
      <IgnoredFilters notes={ignored} />

      <Card className="p-4">
        <h3 className="sr-only">{filtered ? "Totals for this filter" : "Totals"}</h3>
        <dl className="grid gap-4 sm:grid-cols-4">
          <div>
            <dt className="text-sm text-muted-foreground">Movements</dt>
            <dd className="text-lg font-semibold tabular-nums" data-testid="ledger-count">
              {ledger.totals.count}
            </dd>
          </div>
          <div>
            <dt className="text-sm text-muted-foreground">Credit in</dt>
            <dd className="text-lg font-semibold tabular-nums">{formatGBP(ledger.totals.credits_in)}</dd>
          </div>
          <div>
            <dt className="text-sm text-muted-foreground">Credit out</dt>
            <dd className="text-lg font-semibold tabular-nums">{formatGBP(ledger.totals.credits_out)}</dd>
          </div>
          <div>
            <dt className="text-sm text-muted-foreground">Net</dt>
            <dd className="text-lg font-semibold tabular-nums" data-testid="ledger-net">
              {formatSignedGBP(ledger.totals.net)}
            </dd>
          </div>
        </dl>
      </Card>

      {ledger.rows.length === 0 ? (
        <EmptyState
          icon={<History />}
          title={filtered ? "No credit movements match this filter." : "No credit movements yet."}
        />
      ) : (
        <LedgerTable rows={ledger.rows} />
      )}

      <Pagination previousHref={newer} nextHref={older} words={NEWER_OLDER} label="Pages of history" />
    </section>
  );
}
