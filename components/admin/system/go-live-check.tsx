import { Badge, type BadgeVariant } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { overallVerdict, type CheckResult, type Verdict } from "@/lib/operations/production-check";

const VERDICT: Record<Verdict, { label: string; badge: BadgeVariant }> = {
  pass: { label: "OK", badge: "success" },
  warn: { label: "Warning", badge: "warning" },
  fail: { label: "Wrong", badge: "destructive" },
};

const SUMMARY: Record<Verdict, string> = {
  pass: "Ready: every check passed.",
  warn: "Ready, with warnings: the site works, but not as a real-money site.",
  fail: "Not ready: fix what is marked wrong, then run the check again.",
};

/** The go-live check's report: the verdict, then one row a check (the same as `npm run check:production`). */
export function GoLiveCheckReport({ results }: { results: CheckResult[] }) {
  const verdict = overallVerdict(results);
  return (
    <>
      <p className="font-semibold" role="status">
        {SUMMARY[verdict]}
      </p>
      <DataTable
        cards
        caption="The go-live check, one row a check"
        rows={results}
        rowKey={(r) => r.code}
        columns={[
          { header: "Check", cell: (r) => <span className="font-mono text-xs">{r.code}</span> },
          {
            header: "Verdict",
            cell: (r) => <Badge variant={VERDICT[r.verdict].badge}>{VERDICT[r.verdict].label}</Badge>,
          },
          { header: "What it found", cell: (r) => r.message },
        ]}
      />
    </>
  );
}
