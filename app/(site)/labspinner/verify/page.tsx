import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { VerifyByHand } from "@/components/spinner/verify-by-hand";
import { VerifySeedPairs, VerifySpins } from "@/components/spinner/verify-spins";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { getAccount } from "@/lib/auth/session";
import { getMySpinHistory } from "@/lib/data/spinner";

export const metadata: Metadata = {
  title: "Verify your LabSpinner spins",
  description: "Recompute every LabSpinner spin in your browser from the revealed server seed, client seed and nonce.",
};

const PATH = "/labspinner/verify";

export default async function VerifySpinsPage() {
  const account = await getAccount();
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-10 px-4 py-12 sm:px-6">
      <header>
        <h1 className="text-4xl font-extrabold tracking-tight">Verify your spins</h1>
        <p className="mt-3 text-lg text-muted-foreground">
          Every LabSpinner result is decided on our server from your seed pair before the wheel moves. Once you rotate a
          pair, its server seed is revealed and this page recomputes each of its spins in your browser: the seed must
          hash to the SHA-256 you were shown before spinning, and HMAC-SHA256 of your client seed and nonce must land on
          the segment we recorded.{" "}
          <Link href="/docs/labspinner" className="font-medium text-primary-text underline underline-offset-4">
            How the derivation works
          </Link>
          .
        </p>
      </header>
      {account ? (
        <SignedIn />
      ) : (
        <EmptyState
          title="Sign in to verify your spins"
          description="Your spins and seed pairs are private to your account."
        >
          <Link href={`/login?next=${PATH}`} className={buttonClasses("primary", "lg")}>
            Sign in
          </Link>
          <Link href="/labspinner" className={buttonClasses("outline", "lg")}>
            Back to LabSpinner
          </Link>
        </EmptyState>
      )}
    </div>
  );
}

async function SignedIn() {
  const history = await getMySpinHistory();
  return (
    <>
      <VerifySpins history={history} />
      <VerifyByHand wheels={history.wheels} />
      <VerifySeedPairs seeds={history.seeds} />
    </>
  );
}
