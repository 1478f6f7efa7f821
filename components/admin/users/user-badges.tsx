import { Badge, type BadgeVariant } from "@/components/ui/badge";
import type { ApprovalState, KycStatus, UserRole } from "@/lib/data/admin-users-options";
import { LABELS } from "@/lib/labels";

const APPROVAL_VARIANTS: Record<ApprovalState, BadgeVariant> = {
  approved: "success",
  pending: "warning",
  rejected: "destructive",
  deleted: "neutral",
};
const KYC_VARIANTS: Record<KycStatus, BadgeVariant> = {
  none: "outline",
  pending: "warning",
  verified: "success",
  rejected: "destructive",
};

export const ApprovalBadge = ({ state }: { state: ApprovalState }) => (
  <Badge variant={APPROVAL_VARIANTS[state]}>{LABELS.approval_state[state]}</Badge>
);

export const KycBadge = ({ status }: { status: KycStatus }) => (
  <Badge variant={KYC_VARIANTS[status]}>KYC: {LABELS.kyc_status[status]}</Badge>
);

export const RoleBadge = ({ role }: { role: UserRole }) => (
  <Badge variant={role === "user" ? "outline" : "primary"}>{LABELS.user_role[role]}</Badge>
);
