import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { SignUpForm } from "@/components/auth/sign-up-form";
import { approvalReturnPath } from "@/lib/auth/paths";

export const metadata: Metadata = { title: "Sign up" };

export default async function SignUpPage({
  searchParams,
}: {
  searchParams: Promise<{ ref?: string | string[]; next?: string | string[] }>;
}) {
  const { ref, next } = await searchParams;
  // A friend's invite link (/signup?ref=CODE): the code fills the form's field; SQL checks it on submit.
  const referralCode = typeof ref === "string" ? ref.slice(0, 40) : undefined;
  // Where the visitor came from (/signup?next=…), kept only when it is a page on this site.
  const returnPath = approvalReturnPath(typeof next === "string" ? next : null) ?? undefined;
  return (
    <section className="mx-auto flex w-full max-w-sm flex-col gap-6">
      <div>
        <h1 className="text-2xl font-bold">Create your account</h1>
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
