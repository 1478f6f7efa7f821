import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { UnsubscribeForm } from "@/components/account/marketing-consent-form";

export const metadata: Metadata = { title: "Unsubscribe from marketing e-mails", robots: { index: false } };
// The token is in the address: nothing of it is cached or prerendered.
export const dynamic = "force-dynamic";

// Where a marketing mail's "Unsubscribe in one click" link leads. Opening it changes nothing (mail scanners
// and previews open links); the button posts the token, signed in or not, and SQL checks it once.
export default async function UnsubscribePage({
  searchParams,
}: {
  searchParams: Promise<{ token?: string | string[] }>;
}) {
  const { token } = await searchParams;
  const value = typeof token === "string" ? token : "";
  return (
    <section className="mx-auto flex max-w-xl flex-col gap-4 py-12">
      <h1 className="text-3xl font-bold">Unsubscribe from marketing e-mails</h1>
      {value ? (
        <>
          <p>
            Press the button and we will stop e-mailing you about new competitions and results. Mail about your account
            and entries (receipts, draws, complaints) still comes.
          </p>
          <UnsubscribeForm token={value} />
        </>
      ) : (
        <p>
          This page needs the link from one of our e-mails. You can also change your choice on your{" "}
          <Link href="/account/profile" className="underline">
            profile
          </Link>
          .
        </p>
      )}
    </section>
  );
}
