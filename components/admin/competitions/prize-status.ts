import type { PrizeStatus } from "@/lib/data/admin-competitions";

export const PRIZE_STATUS_LABELS: Record<PrizeStatus, string> = {
  awaiting_claim: "Awaiting claim",
  verified: "Verified",
  delivered: "Delivered",
};
