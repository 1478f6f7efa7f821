import type { Metadata } from "next";
import { NewPasswordForm, RequestResetForm } from "@/components/auth/reset-password-forms";
import { getClaims } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Reset your password" };

// Signed out: ask for the e-mail. Signed in through the recovery link: set the new password.
export default async function ResetPasswordPage() {
  const claims = await getClaims();
  return (
    <section className="mx-auto flex w-full max-w-sm flex-col gap-6">
      <h1 className="text-2xl font-bold">Reset your password</h1>
      {claims ? (
        <NewPasswordForm submitLabel="Set new password" />
      ) : (
        <>
          <p className="text-sm text-muted-foreground">We will e-mail you a link to choose a new password.</p>
          <RequestResetForm />
        </>
      )}
    </section>
  );
}
