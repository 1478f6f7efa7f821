import { getClaims } from "@/lib/auth/session";
import { DbError } from "@/lib/data/errors";
import { getMySpinner, type MySpinner } from "@/lib/data/spinner";

// The signed-in player's LabSpinner panel (credits, block, seeds, balance, last spins), read by the
// page's client island so /labspinner itself stays one static document. Personal: never cached.
export const dynamic = "force-dynamic";

export async function GET() {
  let spinner: MySpinner | null = null;
  if (await getClaims()) {
    try {
      spinner = await getMySpinner();
    } catch (e) {
      // An expired session reads as signed out (the demo shows); anything else is a fault.
      if (!(e instanceof DbError && e.code === "not_authenticated")) throw e;
    }
  }
  return Response.json(spinner, { headers: { "Cache-Control": "private, no-store" } });
}
