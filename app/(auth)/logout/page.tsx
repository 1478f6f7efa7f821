import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { SignOutForm } from "@/components/auth/sign-out-form";
import { SubmitButton } from "@/components/forms/submit-button";
import { getClaims } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Sign out", robots: { index: false } };

// A GET never signs out (a link or an image on another site could): it asks, and the button posts the
// signOut action from this page. The header's "Sign out" posts the same action in one click.
export default async function LogoutPage() {
  // The token alone (no account lookup): whoever holds a session can always give it up.
  const claims = await getClaims();
  const email = typeof claims?.email === "string" && claims.email ? claims.email : null;
  return (
    <section className="mx-auto flex w-full max-w-sm flex-col gap-6">
      <h1 className="text-2xl font-bold">Sign out?</h1>
      {claims ? (
        <SignOutForm className="flex flex-col gap-4">
          <p>You are signed in{email ? ` as ${email}` : ""}.</p>
          <SubmitButton pendingLabel="Signing out…">Sign out</SubmitButton>
        </SignOutForm>
      ) : (
        <p>
          You are not signed in.{" "}
          <Link href="/" className="underline">
            Go to the home page
          </Link>
        </p>
      )}
    </section>
  );
}
