import { getClaims } from "@/lib/auth/session";
import { DbError } from "@/lib/data/errors";
import { getMySpinner, type MySpinner } from "@/lib/data/spinner";
import { defineRoute } from "@/lib/http/define-route";

// The signed-in player's LabSpinner panel (credits, block, seeds, balance, last spins), read by the
// page's client island so /labspinner itself stays one static document. Personal: never cached.
export const dynamic = "force-dynamic";

async function get() {
  let spinner: MySpinner | null = null;
  if (await getClaims()) {
    try {
      spinner = await getMySpinner();
    } catch (e) {
      // An expired session reads as signed out (the demo shows), as does one that has two-step on and
      // has not given its code (SQL refuses it the player's spinner until it does); anything else is a fault.
      if (!(e instanceof DbError && (e.code === "not_authenticated" || e.code === "aal2_required"))) throw e;
    }
  }
  return Response.json(spinner, { headers: { "Cache-Control": "private, no-store" } });
}

export const GET = defineRoute({ kind: "json" }, get);
