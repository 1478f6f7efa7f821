import type { Competition } from "@/lib/data/competitions";
import { formatPounds } from "@/lib/format";
import { cn } from "@/lib/utils";

/** The prize's value and, beside it, the cash alternative when one is offered: "£1,500 or £1,200 cash". */
export function PrizeValue({
  competition: c,
  cashClassName,
}: {
  competition: Pick<Competition, "prize_value" | "cash_alternative">;
  cashClassName?: string;
}) {
  return (
    <>
      {formatPounds(c.prize_value)}
      {/* The space before "or" stays outside the unbroken part: where the line is short, "or … cash" goes below. */}
      {c.cash_alternative !== null ? (
        <>
          {" "}
          <span className={cn("whitespace-nowrap", cashClassName)}>or {formatPounds(c.cash_alternative)} cash</span>
        </>
      ) : null}
    </>
  );
}
