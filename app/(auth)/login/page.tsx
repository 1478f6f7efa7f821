import type { Metadata } from "next";
import { headers } from "next/headers";
import { Link } from "@/components/ui/link";
import { SignInForm } from "@/components/auth/sign-in-form";
import { Alert } from "@/components/ui/alert";
import { cameFrom, safeNextPath } from "@/lib/auth/paths";
import { originFromHeaders } from "@/lib/site-url";

export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string; error?: string }>;
}) {
  const { next, error } = await searchParams;
  const request = await headers();
  // Back to the page the player asked from: the guard's `next`, else the page they pressed "Sign in" on.
  const after = next
    ? safeNextPath(next)
    : cameFrom(
        request.get("referer"),
        originFromHeaders((name) => request.get(name)),
      );
  return (
    <section className="mx-auto flex w-full max-w-sm flex-col gap-6">
      <h1 id="sign-in-heading" className="text-2xl font-bold">
        Sign in
      </h1>
      {error && <Alert variant="destructive">{error}</Alert>}
      <SignInForm next={after} labelledBy="sign-in-heading" />
      <p className="text-sm">
        New to LabCash?{" "}
        <Link href="/signup" className="font-medium underline">
          Create an account
        </Link>
      </p>
    </section>
  );
}
