import { Card } from "@/components/ui/card";
import { Textarea } from "@/components/ui/textarea";
import { ShareInvite } from "@/components/referrals/share-invite";
import type { MyReferrals, Referral } from "@/lib/data/referrals";
import { formatDate, formatGBP } from "@/lib/format";
import { shareWords } from "@/lib/referrals/invitation";

const STATUS: Record<Referral["status"], string> = {
  pending: "Joined: credit once approved and after a first paid entry",
  credited: "Credited",
  refused: "Not credited",
};

function describe(r: Referral): string {
  if (r.status === "credited" && r.amount !== null) return `Credited ${formatGBP(r.amount)}`;
  if (r.status === "refused") return `${STATUS.refused}: ${r.reason_text ?? "see the rules"}`;
  return STATUS[r.status];
}

/** The player's invite link, to share or copy, and what it came to (the account dashboard). */
export function InviteFriends({ referrals, link }: { referrals: MyReferrals; link: string }) {
  const { credit, joined, credited, credited_total, friends, invited } = referrals;
  return (
    <Card className="flex flex-col gap-4 p-5">
      <section aria-labelledby="invite" className="flex flex-col gap-4">
        <h2 id="invite" className="text-xl font-semibold">
          Invite friends
        </h2>
        <p className="text-sm">
          Share your link. When a friend who joins with it is approved and makes their first paid entry, you each get{" "}
          {formatGBP(credit)} credit, once. Free postal entries do not count, and no credit is paid while either of you
          is taking a break, self-excluded or restricted, for inviting yourself, or beyond a monthly number of friends.
        </p>
        <div className="flex flex-col gap-2">
          <label htmlFor="invite-link" className="text-sm font-medium">
            Your invite link
          </label>
          {/* Wrapped whole, so a phone shows all of it (an input would show its start only). */}
          <Textarea
            id="invite-link"
            readOnly
            value={link}
            rows={2}
            className="field-sizing-content resize-none font-mono break-all"
          />
          <ShareInvite link={link} text={shareWords(credit)} />
        </div>
        <p className="text-sm" data-testid="referral-summary">
          {joined === 0
            ? "No friends have joined with your link yet."
            : `${joined} ${joined === 1 ? "friend has" : "friends have"} joined with your link; ${credited} credited, ${formatGBP(credited_total)} to you in all.`}
        </p>
        {friends.length > 0 ? (
          <ul className="flex flex-col gap-1 text-sm">
            {friends.map((f) => (
              <li key={f.id}>
                Joined {formatDate(f.created_at)}: {describe(f)}
              </li>
            ))}
          </ul>
        ) : null}
        {invited ? <p className="text-sm">You joined with a friend&apos;s invite: {describe(invited)}.</p> : null}
      </section>
    </Card>
  );
}
