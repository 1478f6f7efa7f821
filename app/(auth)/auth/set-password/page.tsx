import type { Metadata } from "next";
import { NewPasswordForm } from "@/components/auth/reset-password-forms";
import { Link } from "@/components/ui/link";
import { getClaims } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Choose your password" };

// Where an invitation's link leads (npm run setup:admin): the link signed the invited person in, so they choose a
// password here without an old one, then go on to the console, which asks for two-step verification first.
export default async function SetPasswordPage() {
  const claims = await getClaims();
  return (
    <section className="mx-auto flex w-full max-w-sm flex-col gap-6">
      <h1 className="text-2xl font-bold">Choose your password</h1>
      {claims ? (
        <>
          <p className="text-sm text-muted-foreground">
            You have accepted the invitation. Choose the password you will sign in with.
          </p>
          <NewPasswordForm submitLabel="Set password" />
          <p className="text-sm">
            Then{" "}
            <Link href="/admin" className="underline">
              go to the admin console
            </Link>
            , where you set up two-step verification.
          </p>
        </>
      ) : (
        <p className="text-sm text-muted-foreground">
          Open the link in your invitation e-mail to choose a password, or{" "}
          <Link href="/login" className="underline">
            sign in
          </Link>
          .
        </p>
      )}
    </section>
  );
}
