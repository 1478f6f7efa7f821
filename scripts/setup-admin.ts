// `npm run setup:admin -- you@example.com [--another]`: invites the first super admin of a deployment (see
// lib/auth/setup-admin.ts). Reads the project from the environment (or .env.local): NEXT_PUBLIC_SUPABASE_URL (or
// SUPABASE_URL), SUPABASE_SECRET_KEY and SITE_URL, as the site does.
import nextEnv from "@next/env";
import { parseSetupAdminArgs, setupAdmin, SetupAdminError } from "@/lib/auth/setup-admin";

nextEnv.loadEnvConfig(process.cwd(), false, { info() {}, error: console.error });

function required(name: string, value: string | undefined): string {
  if (!value?.trim()) throw new SetupAdminError(`Set ${name} (in the environment or .env.local) first.`);
  return value.trim();
}

try {
  const args = parseSetupAdminArgs(process.argv.slice(2));
  const target = {
    supabaseUrl: required("NEXT_PUBLIC_SUPABASE_URL", process.env.SUPABASE_URL ?? process.env.NEXT_PUBLIC_SUPABASE_URL),
    secretKey: required("SUPABASE_SECRET_KEY", process.env.SUPABASE_SECRET_KEY),
    siteUrl: required("SITE_URL", process.env.SITE_URL),
  };
  const { redirectTo } = await setupAdmin(target, args);
  console.log(
    `Invited ${args.email}. Their e-mail's link signs them in and leads to ${redirectTo} to choose a password; ` +
      "they become super admin as they accept it, and set up two-step verification on their first visit to /admin.",
  );
} catch (error) {
  if (!(error instanceof SetupAdminError)) throw error;
  console.error(error.message);
  process.exit(1);
}
