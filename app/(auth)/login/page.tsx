import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { SignInLinkForm } from "@/components/auth/sign-in-by-email-forms";
import { SignInForm } from "@/components/auth/sign-in-form";
import { Alert } from "@/components/ui/alert";
import { safeNextPath } from "@/lib/auth/paths";

export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string; error?: string }>;
}) {
  const { next, error } = await searchParams;
  const after = next ? safeNextPath(next) : undefined;
  return (
    <section className="mx-auto flex w-full max-w-sm flex-col gap-6">
      <h1 className="text-2xl font-bold">Sign in</h1>
      {error && <Alert variant="destructive">{error}</Alert>}
      <SignInForm next={after} />
      <SignInLinkForm next={after} />
      <p className="text-sm">
        New to LabCash?{" "}
        <Link href="/signup" className="font-medium underline">
          Create an account
        </Link>
      </p>
    </section>
  );
}
