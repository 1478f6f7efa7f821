import { Link } from "@/components/ui/link";

/** The free route (so the wheel is not a lottery): one spin credit per postal request, same odds. */
export function FreeRoute({ postalAddress }: { postalAddress: string[] }) {
  return (
    <section id="free-route" aria-labelledby="free-route-heading" className="flex flex-col gap-3">
      <h2 id="free-route-heading" className="text-2xl font-bold">
        Spin for free by post
      </h2>
      <p className="max-w-3xl">
        You never have to buy anything to spin. Send a postcard or letter with your name, the e-mail address of your
        LabCash account and the word <strong>LabSpinner</strong> to:
      </p>
      <address className="w-fit rounded-lg border border-border bg-card px-4 py-3 not-italic">
        {postalAddress.map((line) => (
          <span key={line} className="block">
            {line}
          </span>
        ))}
      </address>
      <p className="max-w-3xl">
        We add one spin credit to your account for each request we receive, with exactly the same odds as a spin earned
        on tickets, and e-mail you when it is there.{" "}
        <Link href="/docs/labspinner" className="font-medium text-primary-text underline underline-offset-4">
          How LabSpinner works
        </Link>
      </p>
    </section>
  );
}
