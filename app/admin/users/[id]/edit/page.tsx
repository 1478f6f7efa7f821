import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AdminBreadcrumbs } from "@/components/admin/admin-breadcrumbs";
import { CreditAdjustmentForm } from "@/components/admin/users/credit-adjustment-form";
import { DeleteUserDialog } from "@/components/admin/users/delete-user-dialog";
import { loadUser } from "@/lib/users/load-user";
import { RoleForm } from "@/components/admin/users/role-form";
import { TwoStepResetDialog } from "@/components/admin/users/two-step-reset-dialog";
import { UserDetailsForm } from "@/components/admin/users/user-details-form";
import { Alert } from "@/components/ui/alert";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { hasSecondFactor } from "@/lib/auth/factors";
import { requireAdmin } from "@/lib/auth/session";
import { formatGBP } from "@/lib/format";

export const metadata: Metadata = { title: "Edit user", robots: { index: false } };

export default async function EditUserPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const me = await requireAdmin(`/admin/users/${id}/edit`);
  const detail = await loadUser(id);
  const { user } = detail;
  // A deleted account has nothing left to edit.
  if (user.approval === "deleted") notFound();
  const superAdmin = me.role === "super_admin";
  const own = me.id === user.id;
  // Null when the auth server could not say: the card says so rather than the whole screen failing.
  const twoStepOn = superAdmin && !own ? await hasSecondFactor(user.id).catch(() => null) : false;
  return (
    <section className="flex flex-col gap-6">
      <div>
        <AdminBreadcrumbs
          path="/admin/users"
          extra={[{ label: user.name, href: `/admin/users/${id}` }, { label: "Edit" }]}
        />
        <PageHeader title={`Edit ${user.name}`} description={user.email ?? undefined} />
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Details</CardTitle>
          </CardHeader>
          <CardContent>
            <UserDetailsForm
              userId={user.id}
              name={user.name}
              approval={user.approval}
              kyc={user.kyc_status}
              rejectionReason={user.rejection_reason}
            />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Credit</CardTitle>
            <CardDescription>Balance {formatGBP(user.credits)}</CardDescription>
          </CardHeader>
          <CardContent>
            {own ? (
              <Alert variant="info" announce={false}>
                You cannot adjust your own credit. Ask another admin.
              </Alert>
            ) : (
              <CreditAdjustmentForm userId={user.id} threshold={formatGBP(detail.large_adjustment_threshold)} />
            )}
          </CardContent>
        </Card>
        {superAdmin ? (
          <Card>
            <CardHeader>
              <CardTitle>Role</CardTitle>
            </CardHeader>
            <CardContent>
              {own ? (
                <Alert variant="info" announce={false}>
                  You cannot change your own role. Ask another super admin.
                </Alert>
              ) : (
                <RoleForm userId={user.id} role={user.role} />
              )}
            </CardContent>
          </Card>
        ) : null}
        {superAdmin && !own ? (
          <Card>
            <CardHeader>
              <CardTitle>Two-step verification</CardTitle>
              <CardDescription>
                {twoStepOn === null
                  ? "The auth server did not answer, so whether it is on is not known. Reload to try again."
                  : twoStepOn
                    ? "On. If they have lost their authenticator app, reset it: they sign in with their password and set up a new one (admins must before the console opens)."
                    : "Off: they have no authenticator app set up."}
              </CardDescription>
            </CardHeader>
            {twoStepOn ? (
              <CardContent>
                <TwoStepResetDialog userId={user.id} name={user.name} />
              </CardContent>
            ) : null}
          </Card>
        ) : null}
        {superAdmin && !own && user.role === "user" ? (
          <Card>
            <CardHeader>
              <CardTitle>Delete</CardTitle>
              <CardDescription>Deleting anonymises the account; its ledger and tickets stay.</CardDescription>
            </CardHeader>
            <CardContent>
              <DeleteUserDialog userId={user.id} name={user.name} />
            </CardContent>
          </Card>
        ) : null}
      </div>
    </section>
  );
}
