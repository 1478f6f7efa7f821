import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { SignUpForm } from "@/components/auth/sign-up-form";

export const metadata: Metadata = { title: "Sign up" };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<{ ref?: string | string[] }> }) {
  const { ref } = await searchParams;
  // A friend's invite link (/signup?ref=CODE): the code fills the form's field; SQL checks it on submit.
  const referralCode = typeof ref === "string" ? ref.slice(0, 40) : undefined;
  return (
    <section className="mx-auto flex w-full max-w-sm flex-col gap-6">
      <div>
        <h1 className="text-2xl font-bold">Create your account</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          New accounts are checked by our team before they can add credit or enter. It is usually quick.
        </p>
      </div>
      <SignUpForm referralCode={referralCode} />
      <p className="text-sm">
        Already have an account?{" "}
        <Link href="/login" className="font-medium underline">
          Sign in
        </Link>
      </p>
    </section>
  );
}
