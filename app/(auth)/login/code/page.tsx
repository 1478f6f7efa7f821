import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { SignInCodeForm } from "@/components/auth/sign-in-code-form";
import { safeNextPath, signInPath } from "@/lib/auth/paths";
import { rememberedSignInAddress } from "@/lib/auth/sign-in-address";
import { EMAIL_CODE_LENGTH } from "@/lib/validation/email-code";
import { CHECK_INBOX } from "@/lib/validation/auth";

export const metadata: Metadata = { title: "Sign in with a code" };

export default async function SignInCodePage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  const after = next ? safeNextPath(next) : undefined;
  // Set when this browser has just asked for a link and code: the same for every address, known or not.
  const email = await rememberedSignInAddress();
  return (
    <section className="mx-auto flex w-full max-w-sm flex-col gap-6">
      <h1 className="text-2xl font-bold">Sign in with a code</h1>
      {email ? (
        <p role="status" className="text-sm">
          {CHECK_INBOX}
        </p>
      ) : (
        <p className="text-sm text-muted-foreground">
          Type the address you asked for a sign-in link with and the {EMAIL_CODE_LENGTH}-digit code from that e-mail.
        </p>
      )}
      <SignInCodeForm next={after} email={email} />
      <p className="text-sm">
        <Link href={signInPath(after)} className="underline">
          Ask for a new sign-in link
        </Link>
      </p>
    </section>
  );
}
