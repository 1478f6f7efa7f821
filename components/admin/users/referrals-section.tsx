import { Link } from "@/components/ui/link";
import { DataTable } from "@/components/ui/data-table";
import type { NamedReferral, UserReferrals } from "@/lib/data/referrals";
import { formatDateTime, formatGBP } from "@/lib/format";

function outcome(r: NamedReferral): string {
  if (r.status === "credited" && r.amount !== null) return `Credited ${formatGBP(r.amount)} to each`;
  if (r.status === "refused") return `Refused: ${r.reason_text ?? r.reason}`;
  return "Pending (approval and a first paid entry)";
}

/** Who invited this player and whom they invited, on /admin/users/{id} (every step is also in the activity log). */
export function ReferralsSection({ referrals: { code, referred_by, referred } }: { referrals: UserReferrals }) {
  return (
    <section aria-labelledby="referrals-heading" className="flex flex-col gap-3">
      <h2 id="referrals-heading" className="text-lg font-semibold">
        Referrals
      </h2>
      <p className="text-sm">
        Invite code: {code ?? "none yet (made when the player first opens their profile)"}.{" "}
        {referred_by ? (
          <>
            Invited by{" "}
            <Link href={`/admin/users/${referred_by.user_id}`} className="underline">
              {referred_by.name}
            </Link>
            : {outcome(referred_by)}.
          </>
        ) : (
          "Not invited by anyone."
        )}
      </p>
      <DataTable
        cards
        caption="Players this player invited, newest first"
        captionHidden
        rows={referred}
        rowKey={(r) => r.id}
        empty={<p className="text-sm text-muted-foreground">Has invited nobody who joined.</p>}
        columns={[
          {
            header: "Joined",
            className: "whitespace-nowrap",
            cell: (r) => <time dateTime={r.created_at}>{formatDateTime(r.created_at)}</time>,
          },
          {
            header: "Player",
            cell: (r) => (
              <Link href={`/admin/users/${r.user_id}`} className="underline">
                {r.name}
              </Link>
            ),
          },
          { header: "Outcome", cell: (r) => outcome(r) },
        ]}
      />
    </section>
  );
}
