import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { ComplaintDeadlines } from "@/components/complaints/complaint-deadlines";
import { buttonClasses } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { getSiteSettings } from "@/lib/data/settings";
import { HelpAssistant } from "@/components/assistant/help-assistant";

export const metadata: Metadata = {
  title: "Complaints",
  description:
    "How to complain to LabCash, the deadlines we keep (acknowledged within 2 working days, a final answer within 28 days) and the independent body that can review our answer.",
  alternates: { canonical: "/complaints" },
};

// The same page for everyone (nothing here reads the session): signed-in players complain through the form on
// /account/complaints, where they also follow their complaints.
export default async function ComplaintsPage() {
  const { complaints_contact: contact, dispute_resolution_body: body } = await getSiteSettings();
  const mailto = `mailto:${contact}`;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-10 px-4 py-12 sm:px-6">
      <header>
        <h1 className="text-4xl font-extrabold tracking-tight">Complaints</h1>
        <p className="mt-3 text-lg text-muted-foreground">
          If something has gone wrong with a competition, a draw, a payment or your account, tell us. Every complaint
          gets a reference number, and we keep to the deadlines below.
        </p>
      </header>

      <section aria-labelledby="deadlines" className="flex flex-col gap-4">
        <h2 id="deadlines" className="text-2xl font-bold">
          Our deadlines
        </h2>
        <ComplaintDeadlines />
        <p className="text-sm text-muted-foreground">
          Working days are Monday to Friday, except bank holidays in England and Wales.
        </p>
      </section>

      <section aria-labelledby="how" className="flex flex-col gap-4">
        <h2 id="how" className="text-2xl font-bold">
          How to complain
        </h2>
        <div className="grid gap-4 md:grid-cols-2">
          <Card>
            <CardHeader>
              <CardTitle className="text-base">Online, with your account</CardTitle>
              <CardDescription>
                Sign in and fill in the complaint form. You see your reference number at once, we e-mail you a
                confirmation, and you can follow your complaint&apos;s progress.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <Link href="/account/complaints" className={buttonClasses("primary", "md")}>
                Make a complaint
              </Link>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle className="text-base">By e-mail</CardTitle>
              <CardDescription>
                No account, or cannot sign in? E-mail us and we reply with your reference number. The same deadlines
                apply.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <a href={mailto} className="font-medium break-all text-primary-text underline underline-offset-4">
                {contact}
              </a>
            </CardContent>
          </Card>
        </div>
        <div>
          <h3 className="font-semibold">What to tell us</h3>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-muted-foreground">
            <li>Your name, and the e-mail address of your account if you have one.</li>
            <li>The competition, ticket number or payment reference it is about, if any.</li>
            <li>What happened, and what you would like us to do about it.</li>
          </ul>
        </div>
      </section>

      <section aria-labelledby="dispute" className="flex flex-col gap-3">
        <h2 id="dispute" className="text-2xl font-bold">
          If you are not happy with our answer
        </h2>
        <p>
          If you disagree with our final answer, or we have not given you one within 28 days, you can ask an independent
          dispute-resolution body to look at your complaint:{" "}
          <a href={body.url} className="font-medium text-primary-text underline underline-offset-4">
            {body.name}
          </a>
          . Please complain to us first, so we have the chance to put things right.
        </p>
        <p className="text-muted-foreground">
          How we meet the prize-draw code of practice, complaints included, is set out in{" "}
          <Link
            href="/docs/legal/code-of-practice"
            className="font-medium text-primary-text underline underline-offset-4"
          >
            our code of practice commitments
          </Link>
          .
        </p>
      </section>
      <HelpAssistant />
    </div>
  );
}
