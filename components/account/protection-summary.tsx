import { Alert, AlertTitle } from "@/components/ui/alert";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import type { Protections } from "@/lib/data/protections";
import { formatDateTime, formatGBP } from "@/lib/format";
import { restrictionLabel } from "@/lib/protections/restriction";

const STOPPED = "you cannot top up or enter competitions, and we send you no marketing e-mail";

/** Until when a break or exclusion lasts, or since when the account is closed, and what that means. */
function restrictionDetail(protections: Protections): string {
  const until = protections.break_until ? formatDateTime(protections.break_until) : "its end";
  switch (protections.state) {
    case "break":
      return `Your break ends on ${until}. Until then ${STOPPED}. A break cannot be ended early.`;
    case "self_exclusion":
      return `Your self-exclusion ends on ${until}. Until then ${STOPPED}. It cannot be ended early.`;
    default:
      return `${protections.closed_at ? `You closed your account on ${formatDateTime(protections.closed_at)}. ` : ""}Now ${STOPPED}. A closed account cannot be opened again.`;
  }
}

/**
 * The player's state (any break, exclusion or closure) and this month's limit. The limit caps top-ups and spending on
 * entries each on its own, so each figure names which it is, and what is left is shown for each (SQL's figures).
 */
export function ProtectionSummary({ protections }: { protections: Protections }) {
  const restriction = restrictionLabel(protections);
  const pending = protections.pending_limit_from
    ? `${protections.pending_limit === null ? "No limit" : formatGBP(protections.pending_limit)} from ${formatDateTime(protections.pending_limit_from)}`
    : null;
  return (
    <>
      {restriction ? (
        <Alert variant="warning" announce={false} data-testid="protection-state">
          <AlertTitle>{restriction}</AlertTitle>
          <p>{restrictionDetail(protections)}</p>
        </Alert>
      ) : null}
      <Card>
        <CardHeader>
          <CardTitle>This month</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]" data-testid="protection-summary">
            <dt className="font-medium">Monthly limit</dt>
            <dd>{protections.monthly_limit === null ? "No limit" : formatGBP(protections.monthly_limit)}</dd>
            {pending ? (
              <>
                <dt className="font-medium">Waiting to apply</dt>
                <dd>{pending}</dd>
              </>
            ) : null}
            <dt className="font-medium">Topped up this month</dt>
            <dd>{formatGBP(protections.month_credited)}</dd>
            <dt className="font-medium">Checkouts in progress</dt>
            <dd>
              {protections.month_held > 0
                ? `${formatGBP(protections.month_held)} held while a checkout is open, released if it is not paid`
                : "None"}
            </dd>
            <dt className="font-medium">Left to top up this month</dt>
            <dd>{protections.top_up_remaining === null ? "No limit" : formatGBP(protections.top_up_remaining)}</dd>
            <dt className="font-medium">Spent on entries this month</dt>
            <dd>{formatGBP(protections.month_spent)}</dd>
            <dt className="font-medium">Left to spend on entries this month</dt>
            <dd>{protections.spend_remaining === null ? "No limit" : formatGBP(protections.spend_remaining)}</dd>
          </dl>
          {protections.monthly_limit === null ? null : (
            <p className="mt-3 text-sm text-muted-foreground">
              The limit caps what you top up and, separately, what you spend on entries: each has its own figure left.
            </p>
          )}
        </CardContent>
      </Card>
    </>
  );
}
