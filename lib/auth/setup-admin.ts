// `npm run setup:admin -- you@example.com [--another]`: the first super admin of a new deployment without SQL.
// SQL records the invitation first (public.invite_super_admin: secret key only, refused while a super admin
// exists unless `--another`, audited), then the auth server e-mails the invitation; SQL gives the role when that
// invited account confirms its address (private.grant_invited_super_admin), so nothing here can grant it.
import { createClient } from "@supabase/supabase-js";
import { z } from "zod";
import { callRpcWith, noResult } from "@/lib/data/rpc";
import { DbError } from "@/lib/data/errors";
import { SET_PASSWORD_PATH } from "./paths";

export const setupAdminArgsSchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .email("Give the e-mail address to invite: npm run setup:admin -- you@example.com"),
  another: z.boolean(),
});
export type SetupAdminArgs = z.infer<typeof setupAdminArgsSchema>;

/** `you@example.com --another` in any order; anything else is refused with the usage. */
export function parseSetupAdminArgs(argv: readonly string[]): SetupAdminArgs {
  const flags = argv.filter((a) => a.startsWith("-"));
  const words = argv.filter((a) => !a.startsWith("-"));
  const unknown = flags.filter((f) => f !== "--another");
  if (unknown.length || words.length !== 1) {
    throw new SetupAdminError("Usage: npm run setup:admin -- you@example.com [--another]");
  }
  const parsed = setupAdminArgsSchema.safeParse({ email: words[0], another: flags.includes("--another") });
  if (!parsed.success) throw new SetupAdminError(parsed.error.issues[0]?.message ?? "Invalid e-mail address");
  return parsed.data;
}

export class SetupAdminError extends Error {}

export interface SetupAdminTarget {
  /** The Supabase project URL (SUPABASE_URL or NEXT_PUBLIC_SUPABASE_URL). */
  supabaseUrl: string;
  /** SUPABASE_SECRET_KEY. */
  secretKey: string;
  /** SITE_URL: the invitation's link returns there. */
  siteUrl: string;
}

const REFUSALS: Partial<Record<string, string>> = {
  super_admin_exists:
    "A super admin already exists (or another address is invited). Ask them to give the role on /admin/users, or run again with --another to invite one more on purpose.",
  account_exists:
    "That address already has an account. A super admin gives it a role on /admin/users; or invite an address with no account.",
};

/** Records the invitation in SQL, then has the auth server send it. Returns where its link will lead. */
export async function setupAdmin(target: SetupAdminTarget, args: SetupAdminArgs): Promise<{ redirectTo: string }> {
  const supabase = createClient(target.supabaseUrl, target.secretKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
  try {
    await callRpcWith(supabase, "invite_super_admin", { p_email: args.email, p_another: args.another }, noResult);
  } catch (error) {
    if (error instanceof DbError) throw new SetupAdminError(REFUSALS[error.code] ?? error.message);
    throw error;
  }
  const redirectTo = `${target.siteUrl.replace(/\/+$/, "")}${SET_PASSWORD_PATH}`;
  const { error } = await supabase.auth.admin.inviteUserByEmail(args.email, { redirectTo });
  if (error) throw new SetupAdminError(`The auth server did not send the invitation: ${error.message}`);
  return { redirectTo };
}
