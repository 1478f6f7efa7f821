import type { Metadata } from "next";
import { cache } from "react";
import { Link } from "@/components/ui/link";
import { siteCardImage } from "@/config/og";
import { siteConfig } from "@/config/site";
import { SignUpForm } from "@/components/auth/sign-up-form";
import { approvalReturnPath } from "@/lib/auth/paths";
import { LivePrizes } from "@/components/referrals/live-prizes";
import { listPublicCompetitions } from "@/lib/data/competitions";
import { getReferralInvitation } from "@/lib/data/referrals";
import { invitationWords } from "@/lib/referrals/invitation";

type SignUpSearch = Promise<{ ref?: string | string[]; next?: string | string[] }>;

/** How many open prizes a friend's invite shows: enough to tempt, few enough to keep the form near on a phone. */
const PRIZES_BESIDE_AN_INVITE = 3;

/** A friend's invite code from the link (/signup?ref=CODE), as the form's field takes it. */
const inviteCodeOf = (ref: string | string[] | undefined) => (typeof ref === "string" ? ref.slice(0, 40) : undefined);

/** What the invite says, asked once per request (the page and its metadata both need it). */
const invitationFor = cache((code: string) => getReferralInvitation(code));

export async function generateMetadata({ searchParams }: { searchParams: SignUpSearch }): Promise<Metadata> {
  const code = inviteCodeOf((await searchParams).ref);
  const invitation = code ? await invitationFor(code) : null;
  if (!invitation || !code) return { title: "Sign up" };
  // The preview card a shared link shows: the offer, not a bare "Sign up".
  const { title, preview } = invitationWords(invitation);
  const url = `/signup?ref=${encodeURIComponent(code)}`;
  return {
    title,
    description: preview,
    openGraph: {
      type: "website",
      siteName: siteConfig.name,
      locale: "en_GB",
      title,
      description: preview,
      url,
      images: [siteCardImage],
    },
    twitter: { card: "summary_large_image", title, description: preview, images: [siteCardImage] },
  };
}

export default async function SignUpPage({ searchParams }: { searchParams: SignUpSearch }) {
  const { ref, next } = await searchParams;
  const referralCode = inviteCodeOf(ref);
  // Where the visitor came from (/signup?next=…), kept only when it is a page on this site.
  const returnPath = approvalReturnPath(typeof next === "string" ? next : null) ?? undefined;
  // The code fills the form's field whether or not it is one of ours: SQL checks it on submit.
  const [invitation, live] = referralCode
    ? await Promise.all([invitationFor(referralCode), listPublicCompetitions("live")])
    : [null, []];
  const words = invitation ? invitationWords(invitation) : null;
  const Heading = words ? "h2" : "h1";
  return (
    <section className="mx-auto flex w-full max-w-sm flex-col gap-6">
      {words ? (
        <div className="flex flex-col gap-2">
          <h1 className="text-2xl font-bold">{words.title}</h1>
          <p className="text-sm">{words.offer}</p>
        </div>
      ) : null}
      {words ? <LivePrizes competitions={live.slice(0, PRIZES_BESIDE_AN_INVITE)} /> : null}
      <div>
        <Heading className={words ? "text-lg font-semibold" : "text-2xl font-bold"}>Create your account</Heading>
        <p className="mt-1 text-sm text-muted-foreground">
          New accounts are checked by our team before they can add credit or enter. It is usually quick.
        </p>
      </div>
      <SignUpForm referralCode={referralCode} next={returnPath} />
      <p className="text-sm">
        Already have an account?{" "}
        <Link href="/login" className="font-medium underline">
          Sign in
        </Link>
      </p>
    </section>
  );
}
