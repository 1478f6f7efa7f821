import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { redirect } from "next/navigation";
import {
  InboxConfirmation,
  ProveAuthenticatorForm,
  RecoveryCodeForm,
  RemoveLostAuthenticatorForm,
  TwoStepCodeForm,
  TwoStepSetup,
} from "@/components/auth/two-step-forms";
import { getMyRecoveryState } from "@/lib/data/recovery-codes";
import { createClient } from "@/lib/supabase/server";
import { safeNextPath, twoStepPath } from "@/lib/auth/paths";
import { getFactorProof, getSessionFacts, isAdmin, requireUser } from "@/lib/auth/session";
import { SignOutForm } from "@/components/auth/sign-out-form";
import { signOutLink } from "@/config/nav";

export const metadata: Metadata = { title: "Two-step verification" };

// The second step of signing in: give the authenticator app's code, or set one up first (admins must,
// on their first visit to the console; players may, from their profile). A session that has passed
// it goes straight on to `next`. An admin first confirms a code e-mailed to them, so that a password
// alone cannot set up the authenticator that opens the console (SQL: record_factor_enrolment). An admin who lost
// their authenticator gives one of their recovery codes instead, removes the lost authenticator and sets up a new
// one here (SQL: use_recovery_code, record_factor_removal_with_recovery_code).
export default async function TwoStepPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const { next: rawNext } = await searchParams;
  const next = safeNextPath(typeof rawNext === "string" ? rawNext : undefined);
  const account = await requireUser(twoStepPath(next));
  const facts = await getSessionFacts();
  // Signed out or revoked elsewhere: the auth server knows nothing of this session's factors.
  if (!facts.live) redirect(`/login?next=${encodeURIComponent(twoStepPath(next))}`);
  const admin = isAdmin(account);
  const proof = admin ? await getFactorProof() : { factors_proven: true, inbox_confirmed: false };
  if (facts.atSecondStep && proof.factors_proven) redirect(next);
  const giveCode = facts.hasSecondFactor && !facts.atSecondStep;
  const [recovery, factors] = giveCode ? await Promise.all([getMyRecoveryState(), verifiedFactors()]) : [null, []];

  return (
    <section className="flex max-w-lg flex-col gap-6">
      <h1 className="text-2xl font-bold">Two-step verification</h1>
      {recovery?.recovery_open ? (
        <>
          <p>
            Your recovery code was accepted. Remove the authenticator you lost; you then set up a new one on this page.
          </p>
          <ul aria-label="Your authenticators" className="flex flex-col gap-3">
            {factors.map((factor) => (
              <li key={factor.id}>
                <RemoveLostAuthenticatorForm factorId={factor.id} name={factor.name} next={next} />
              </li>
            ))}
          </ul>
        </>
      ) : giveCode ? (
        <>
          <p>Open your authenticator app and enter the code it shows for LabCash.</p>
          <TwoStepCodeForm next={next} factors={factors} />
          {recovery && recovery.codes_left > 0 && (
            <section aria-labelledby="lost-authenticator" className="flex flex-col gap-3 border-t pt-4">
              <h2 id="lost-authenticator" className="text-lg font-semibold">
                Lost your authenticator?
              </h2>
              <p className="text-sm">
                Enter one of your recovery codes. It works only if you signed in with your password.
              </p>
              <RecoveryCodeForm next={next} />
            </section>
          )}
        </>
      ) : admin && !proof.inbox_confirmed ? (
        <>
          <p>
            {facts.hasSecondFactor
              ? "Your authenticator app was set up without confirming your e-mail address. Confirm it is you to open the admin console."
              : "The admin console needs two-step verification. First, confirm it is you with a code we e-mail to your address; then set up an authenticator app on your phone."}
          </p>
          <InboxConfirmation next={next} />
        </>
      ) : facts.hasSecondFactor ? (
        <ProveAuthenticatorForm next={next} />
      ) : (
        <>
          <p>
            {isAdmin(account)
              ? "The admin console needs two-step verification. Set it up once with an authenticator app on your phone; after that, you enter a code from the app each time you sign in."
              : "Protect your account with a code from an authenticator app on your phone, asked for each time you sign in, as well as your password."}
          </p>
          <TwoStepSetup next={next} />
        </>
      )}
      {/* A <div>, not a <p>: the browser's parser ends a paragraph at a <form>, so the document it builds from the
          server's HTML would not be the tree React hydrates (React's error #418). */}
      <div className="text-sm text-muted-foreground">
        No access to your authenticator app?{" "}
        <SignOutForm className="inline">
          <button type="submit" className="underline">
            {signOutLink.label}
          </button>
        </SignOutForm>{" "}
        and contact us: the{" "}
        <Link href="/complaints" className="underline">
          complaints page
        </Link>{" "}
        says how.
      </div>
    </section>
  );
}

/** The signed-in user's verified authenticators, by the name each was set up under. */
async function verifiedFactors(): Promise<{ id: string; name: string }[]> {
  const { data } = await (await createClient()).auth.mfa.listFactors();
  return (data?.totp ?? []).map((f) => ({ id: f.id, name: f.friendly_name || "Authenticator app" }));
}
