import { type PlayerFlag } from "@/lib/data/admin-protection";
import { formatDateTime, formatGBP } from "@/lib/format";
import { LABELS } from "@/lib/labels";

// A flag's details (what the SQL saw) in words. The SQL computed every figure; this only formats them.

const money = (value: unknown) =>
  typeof value === "number" || typeof value === "string" ? formatGBP(Number(value)) : "";
const when = (value: unknown) => (typeof value === "string" ? formatDateTime(value) : "");

export const flagKindLabel = (kind: PlayerFlag["kind"]) => LABELS.flag_kind[kind];

export function flagDetailsText(flag: Pick<PlayerFlag, "kind" | "details">): string {
  const d = flag.details;
  switch (flag.kind) {
    case "limit_reached":
      return `Limit ${money(d.limit)}; this month (${String(d.month ?? "")}) topped up ${money(d.topped_up)}, spent ${money(d.spent)}.`;
    case "limit_raises":
      return `${String(d.requests ?? 3)} requests to raise the limit from ${when(d.from)} to ${when(d.to)}; the last asked for ${d.limit === null || d.limit === undefined ? "no limit" : money(d.limit)}.`;
    case "large_top_ups":
      return `${money(d.total)} in ${String(d.top_ups ?? "")} top-ups from ${when(d.from)} to ${when(d.to)}.`;
    case "top_up_after_break":
      return `${d.break_kind === "self_exclusion" ? "Self-exclusion" : "Break"} ended ${when(d.ended_at)}; top-up of ${money(d.amount)} at ${when(d.topped_up_at)}.`;
  }
}
