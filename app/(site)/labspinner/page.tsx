import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { FreeRoute } from "@/components/spinner/free-route";
import { OddsTable } from "@/components/spinner/odds-table";
import { SpinnerPersonal } from "@/components/spinner/spinner-personal";
import { SpinnerStage } from "@/components/spinner/spinner-stage";
import { WheelFace } from "@/components/spinner/wheel-face";
import { Alert, AlertTitle } from "@/components/ui/alert";
import { getSpinnerPostalAddress, getSpinnerWheel } from "@/lib/data/spinner";

export const metadata: Metadata = {
  title: "LabSpinner",
  description:
    "The LabSpinner prize wheel: a spin credit for every £10 spent on tickets or free by post, published odds, and every spin verifiable in your browser.",
  alternates: { canonical: "/labspinner" },
};

// Static, the same for everyone, regenerated at most every few seconds (next.config's expireTime caps
// how stale it can be served); the player's own part is the SpinnerPersonal island.
export const revalidate = 2;

const linkClass = "font-medium text-primary-text underline underline-offset-4";

export default async function LabSpinnerPage() {
  const [wheel, postalAddress] = await Promise.all([getSpinnerWheel(), getSpinnerPostalAddress()]);

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-6 sm:gap-14 sm:px-6 sm:py-12">
      <header className="flex max-w-3xl flex-col gap-3">
        <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">LabSpinner</h1>
        <p className="text-muted-foreground sm:text-lg">
          Spin the wheel for credit prizes. You earn 1 spin credit for every £10 you spend on tickets, or get one free
          by post. The odds are published below, and every spin can be checked in your browser.
        </p>
        {!wheel.enabled ? (
          <Alert variant="warning">
            <AlertTitle>LabSpinner is switched off for now.</AlertTitle>
            <p>No spins can be made until it is back on; spin credits you have are kept.</p>
          </Alert>
        ) : null}
      </header>

      <SpinnerStage
        wheel={<WheelFace segments={wheel.segments} />}
        weights={wheel.segments.map((segment) => segment.weight)}
        label={`The LabSpinner wheel, ${wheel.segments.length} segments under a pointer at the top, each as wide as its chance. The odds of each are in the table below.`}
      >
        <SpinnerPersonal
          enabled={wheel.enabled}
          segments={wheel.segments.map(({ position, label, weight }) => ({ position, label, weight }))}
        />
      </SpinnerStage>

      <OddsTable wheel={wheel} />

      <FreeRoute postalAddress={postalAddress} />

      <section aria-labelledby="fair-heading" className="flex max-w-3xl flex-col gap-3">
        <h2 id="fair-heading" className="text-2xl font-bold">
          Provably fair
        </h2>
        <p>
          Our server decides each spin before the wheel moves, from your own server seed (you see its SHA-256 before you
          spin), a client seed you can change and a counter (the nonce), by HMAC-SHA256 with no bias towards any
          segment. Rotate your seed to reveal the old one, then check every spin it decided.
        </p>
        <p className="flex flex-wrap gap-x-6 gap-y-2">
          <Link href="/labspinner/verify" className={linkClass}>
            Check your spins
          </Link>
          <Link href="/docs/labspinner" className={linkClass}>
            How the wheel decides
          </Link>
        </p>
      </section>
    </div>
  );
}
