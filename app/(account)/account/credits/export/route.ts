import { NextResponse, type NextRequest } from "next/server";
import { monthStart, parseLedgerQuery } from "@/lib/account/ledger-filters";
import { getClaims } from "@/lib/auth/session";
import { getMyLedgerCsv } from "@/lib/data/account";
import { DbError } from "@/lib/data/errors";
import { handleErrors } from "@/lib/http/route-handler";

// The ledger as CSV (the filter of the page it was asked from). Rows and the total line are built in
// SQL (get_my_ledger_csv) so they match the ledger exactly; this handler only names the file.

const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London" });

async function get(request: NextRequest) {
  // The proxy sends signed-out visitors to /login already; a request that gets here without a
  // session (an expired cookie) is answered plainly.
  if (!(await getClaims())) {
    return NextResponse.json({ statusCode: 401, statusMessage: "User not authenticated" }, { status: 401 });
  }
  const { query } = parseLedgerQuery(Object.fromEntries(request.nextUrl.searchParams));
  let csv: string;
  try {
    csv = await getMyLedgerCsv({ kind: query.kind, monthStart: monthStart(query.month) });
  } catch (e) {
    if (!(e instanceof DbError)) throw e;
    const status = e.code === "not_authenticated" ? 401 : e.code === "invalid_input" ? 400 : 500;
    return NextResponse.json({ statusCode: status, statusMessage: e.message }, { status });
  }
  const name = ["labcash-credit", query.kind, query.month, today.format(new Date())].filter(Boolean).join("-");
  return new NextResponse(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}

export const GET = handleErrors("html", get);
