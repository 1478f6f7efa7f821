import { Input } from "@/components/ui/input";
import { CopyLinkButton } from "@/components/referrals/copy-link-button";
import type { MyReferrals, Referral } from "@/lib/data/referrals";
import { formatDate, formatGBP } from "@/lib/format";

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

/** The player's invite link and what it came to (account profile page). */
export function InviteFriends({ referrals, link }: { referrals: MyReferrals; link: string }) {
  const { credit, joined, credited, credited_total, friends, invited } = referrals;
  return (
    <section aria-labelledby="invite" className="flex flex-col gap-4">
      <h2 id="invite" className="text-xl font-semibold">
        Invite a friend
      </h2>
      <p className="text-sm">
        Share your link. When a friend who joins with it is approved and makes their first paid entry, you each get{" "}
        {formatGBP(credit)} credit, once. Free postal entries do not count, and no credit is paid while either of you is
        taking a break, self-excluded or restricted, for inviting yourself, or beyond a monthly number of friends.
      </p>
      <div className="flex flex-col gap-2">
        <label htmlFor="invite-link" className="text-sm font-medium">
          Your invite link
        </label>
        <Input id="invite-link" readOnly value={link} className="font-mono" />
        <CopyLinkButton link={link} />
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
  );
}
