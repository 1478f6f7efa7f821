import type { Metadata } from "next";
import { InboxConfirmation, NewRecoveryCodesForm, TwoStepSetup } from "@/components/auth/two-step-forms";
import { getFactorProof, requireAdmin } from "@/lib/auth/session";
import { getMyRecoveryState } from "@/lib/data/recovery-codes";
import { formatDate } from "@/lib/format";
import { createClient } from "@/lib/supabase/server";

export const metadata: Metadata = { title: "Authenticators and recovery codes" };

const PATH = "/account/authenticators";

// An admin's second factors: the authenticators they hold, adding another (each under its own name, after a code
// from their inbox, as the first: SQL record_factor_enrolment), and their recovery codes (how many are left, and a
// new set that voids the old).
export default async function AuthenticatorsPage() {
  await requireAdmin(PATH);
  const [{ data }, proof, recovery] = await Promise.all([
    (await createClient()).auth.mfa.listFactors(),
    getFactorProof(),
    getMyRecoveryState(),
  ]);
  const factors = data?.totp ?? [];
  return (
    <section className="flex max-w-lg flex-col gap-8">
      <h1 className="text-2xl font-bold">Authenticators and recovery codes</h1>
      <section aria-labelledby="authenticators" className="flex flex-col gap-4">
        <h2 id="authenticators" className="text-xl font-semibold">
          Your authenticators
        </h2>
        <ul className="flex flex-col gap-1 text-sm">
          {factors.map((factor) => (
            <li key={factor.id}>
              <span className="font-medium">{factor.friendly_name || "Authenticator app"}</span>, added{" "}
              {formatDate(factor.created_at)}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="add-authenticator" className="flex flex-col gap-4">
        <h2 id="add-authenticator" className="text-xl font-semibold">
          Add another authenticator
        </h2>
        <p className="text-sm">
          A second phone or app can give your codes if one is lost. First confirm it is you with a code we e-mail you.
        </p>
        {proof.inbox_confirmed ? <TwoStepSetup next={PATH} askName /> : <InboxConfirmation next={PATH} />}
      </section>
      <section aria-labelledby="recovery" className="flex flex-col gap-4">
        <h2 id="recovery" className="text-xl font-semibold">
          Recovery codes
        </h2>
        <p className="text-sm">
          {recovery.codes_left === 1 ? "1 code" : `${recovery.codes_left} codes`} left. Each works once, with your
          password, if you lose every authenticator. New codes replace all the old ones.
        </p>
        <NewRecoveryCodesForm />
      </section>
    </section>
  );
}
