import { NextResponse } from "next/server";
import { monthStart, parseLedgerQuery } from "@/lib/account/ledger-filters";
import { getMyLedgerCsv } from "@/lib/data/account";
import { defineRoute } from "@/lib/http/define-route";
import { londonDay } from "@/lib/time/london";

// The ledger as CSV (the filter of the page it was asked from). Rows and the total line are built in
// SQL (get_my_ledger_csv) so they match the ledger exactly; this handler only names the file. The proxy
// sends signed-out visitors to /login already; a request that gets here without a session (an expired
// cookie) is answered plainly, as is a refusal from SQL.

export const GET = defineRoute({ kind: "html", auth: "user", errors: { invalid_input: 400 } }, async ({ request }) => {
  const { query } = parseLedgerQuery(Object.fromEntries(new URL(request.url).searchParams));
  const csv = await getMyLedgerCsv({ kind: query.kind, monthStart: monthStart(query.month) });
  const name = ["labcash-credit", query.kind, query.month, londonDay()].filter(Boolean).join("-");
  return new NextResponse(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
});
