import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { MarketingConsentForm } from "@/components/account/marketing-consent-form";
import { EmailNotificationsForm, InitialsOnlyForm, ProfileForm } from "@/components/auth/profile-form";
import { NewPasswordForm } from "@/components/auth/reset-password-forms";
import { TurnOffTwoStepForm } from "@/components/auth/two-step-forms";
import { buttonClasses } from "@/components/ui/button";
import { twoStepPath } from "@/lib/auth/paths";
import { getSessionFacts, isAdmin, requireUser } from "@/lib/auth/session";
import { getMyMarketingConsent } from "@/lib/data/account";
import { LABELS } from "@/lib/labels";
import { formatDate, formatDateTime } from "@/lib/format";
import { MARKETING_CONSENT_WORDING } from "@/lib/validation/auth";

export const metadata: Metadata = { title: "Profile settings" };

export default async function ProfilePage() {
  const account = await requireUser("/account/profile");
  const [{ hasSecondFactor, atSecondStep }, consent] = await Promise.all([getSessionFacts(), getMyMarketingConsent()]);
  return (
    <section className="flex max-w-lg flex-col gap-8">
      <h1 className="text-2xl font-bold">Profile settings</h1>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="font-medium">E-mail</dt>
        <dd>{account.email}</dd>
        {account.date_of_birth && (
          <>
            <dt className="font-medium">Date of birth</dt>
            <dd>{formatDate(account.date_of_birth)}</dd>
          </>
        )}
      </dl>
      <ProfileForm name={account.name} town={account.town} />
      <section aria-labelledby="notifications" className="flex flex-col gap-4">
        <h2 id="notifications" className="text-xl font-semibold">
          E-mail notifications
        </h2>
        <EmailNotificationsForm on={account.email_notifications} />
      </section>
      <section aria-labelledby="marketing" className="flex flex-col gap-4">
        <h2 id="marketing" className="text-xl font-semibold">
          Marketing e-mails
        </h2>
        <p className="text-sm">
          {consent.given
            ? `Consented: you chose “${MARKETING_CONSENT_WORDING}”.`
            : "Not consented: we send you no marketing e-mails."}
          {consent.at && consent.source
            ? ` ${LABELS.consent_source[consent.source]}, ${formatDateTime(consent.at)}.`
            : ""}{" "}
          Marketing is separate from your e-mail notifications above: mail about your account and entries (receipts,
          draws, complaints) comes either way.
        </p>
        <MarketingConsentForm given={consent.given} />
      </section>
      <section aria-labelledby="if-you-win" className="flex flex-col gap-4">
        <h2 id="if-you-win" className="text-xl font-semibold">
          If you win
        </h2>
        <p className="text-sm text-muted-foreground">
          We publish every winner on the winners page, as the advertising rules for prize draws ask (CAP Code 8.28.5),
          and every entrant on a competition&apos;s public entry list. By default we show your first name, the initial
          of your surname and your town, e.g. “Priya P., Leeds”. If you would rather not be named, choose initials only:
          we then show just your initials, e.g. “P. P.”, and no town.
        </p>
        <InitialsOnlyForm initialsOnly={account.show_initials_only} />
      </section>
      <div className="flex flex-col gap-4">
        <h2 className="text-xl font-semibold">Change password</h2>
        <NewPasswordForm askCurrentPassword />
      </div>
      <section aria-labelledby="two-step" className="flex flex-col gap-4">
        <h2 id="two-step" className="text-xl font-semibold">
          Two-step verification
        </h2>
        {hasSecondFactor ? (
          <>
            <p className="text-sm">
              On: each time you sign in, you also enter a code from your authenticator app.
              {isAdmin(account) && " Admins must keep it on."}
            </p>
            {isAdmin(account) ? (
              <Link href="/account/authenticators" className="self-start text-sm underline">
                Authenticators and recovery codes
              </Link>
            ) : atSecondStep ? (
              <TurnOffTwoStepForm />
            ) : (
              // Turning it off, like changing the password, needs this session to have given its code.
              <Link href={twoStepPath("/account/profile")} className="self-start text-sm underline">
                Enter your code to change this
              </Link>
            )}
          </>
        ) : (
          <>
            <p className="text-sm">
              Off. Turn it on to be asked for a code from an authenticator app on your phone as well as your password
              each time you sign in.
            </p>
            <Link href={twoStepPath("/account/profile")} className={buttonClasses("primary", "md", "self-start")}>
              Set up two-step verification
            </Link>
          </>
        )}
      </section>
    </section>
  );
}
