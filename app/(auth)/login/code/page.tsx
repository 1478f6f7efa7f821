import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { SignInCodeForm } from "@/components/auth/sign-in-by-email-forms";
import { safeNextPath } from "@/lib/auth/paths";
import { EMAIL_CODE_LENGTH } from "@/lib/validation/auth";

export const metadata: Metadata = { title: "Sign in with a code" };

export default async function SignInCodePage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  const after = next ? safeNextPath(next) : undefined;
  return (
    <section className="mx-auto flex w-full max-w-sm flex-col gap-6">
      <h1 className="text-2xl font-bold">Sign in with a code</h1>
      <p className="text-sm text-muted-foreground">
        Type the address you asked for a sign-in link with and the {EMAIL_CODE_LENGTH}-digit code from that e-mail.
      </p>
      <SignInCodeForm next={after} />
      <p className="text-sm">
        <Link href={after ? `/login?next=${encodeURIComponent(after)}` : "/login"} className="underline">
          Ask for a new sign-in link
        </Link>
      </p>
    </section>
  );
}
