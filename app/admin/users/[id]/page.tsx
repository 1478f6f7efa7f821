import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { Pencil } from "lucide-react";
import { AdminBreadcrumbs } from "@/components/admin/admin-breadcrumbs";
import { loadUser } from "@/lib/users/load-user";
import { UserSpinsSection } from "@/components/admin/spinner/user-spins-section";
import { ReferralsSection } from "@/components/admin/users/referrals-section";
import { ProtectionRecordSection } from "@/components/admin/users/protection-record";
import { ApprovalBadge, KycBadge, RoleBadge } from "@/components/admin/users/user-badges";
import {
  AccountSection,
  ActivitySection,
  EntriesSection,
  LedgerSection,
  ProfileSection,
  ProtectionsSection,
} from "@/components/admin/users/user-sections";
import { Alert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { requireAdmin } from "@/lib/auth/session";
import { getPlayerProtection } from "@/lib/data/admin-protection";
import { getUserSpins } from "@/lib/data/admin-spinner";
import { getUserLedger } from "@/lib/data/admin-users";
import { getUserReferrals } from "@/lib/data/referrals";

export const metadata: Metadata = { title: "User", robots: { index: false } };

const LEDGER_PAGE_SIZE = 25;

export default async function AdminUserPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ before?: string; deleted?: string }>;
}) {
  const { id } = await params;
  await requireAdmin(`/admin/users/${id}`);
  const query = await searchParams;
  const before = query.before && /^[1-9]\d{0,14}$/.test(query.before) ? Number(query.before) : null;
  const detail = await loadUser(id);
  const [ledger, protection, spins, referrals] = await Promise.all([
    getUserLedger(id, before, LEDGER_PAGE_SIZE),
    getPlayerProtection(id),
    getUserSpins(id),
    getUserReferrals(id),
  ]);
  const { user } = detail;
  return (
    <section className="flex flex-col gap-6">
      <div>
        <AdminBreadcrumbs path="/admin/users" extra={[{ label: user.name }]} />
        <PageHeader
          title={user.name}
          description={
            <span className="flex flex-wrap items-center gap-2">
              {user.email ?? "No e-mail"} <RoleBadge role={user.role} /> <ApprovalBadge state={user.approval} />
              <KycBadge status={user.kyc_status} />
            </span>
          }
          actions={
            user.approval === "deleted" ? null : (
              <Link href={`/admin/users/${id}/edit`} className={buttonClasses("primary", "md")}>
                <Pencil aria-hidden />
                Edit user
              </Link>
            )
          }
        />
      </div>
      {query.deleted ? (
        <Alert variant="success">
          The account was deleted: personal data cleared and sign-in removed. Its ledger and tickets are kept.
        </Alert>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-3">
        <ProfileSection user={user} />
        <AccountSection user={user} />
        <ProtectionsSection protections={detail.protections} />
      </div>
      <ProtectionRecordSection
        userId={id}
        record={protection}
        closed={detail.protections.state === "closed"}
        deleted={user.approval === "deleted"}
      />
      <LedgerSection userId={id} page={ledger} paged={before !== null} />
      <EntriesSection entries={detail.entries} />
      <UserSpinsSection spins={spins} />
      <ReferralsSection referrals={referrals} />
      <ActivitySection userId={id} activity={detail.activity} />
    </section>
  );
}
