// `npm run setup:admin` against a new deployment's embedded backend (migrations, no demo data): the invitation is
// recorded in SQL and sent by the auth server; the invited account becomes super admin only as it accepts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_RATE_LIMITS } from "@labcash/embedded-supabase/rate-limit";
import { startEmbeddedServer } from "@/supabase/embedded";
import { parseSetupAdminArgs, setupAdmin, SetupAdminError, type SetupAdminTarget } from "@/lib/auth/setup-admin";
import { freshDb } from "../db/support";
import {
  birthDateYearsAgo,
  client,
  mailFor,
  SECRET_KEY,
  STRONG_PASSWORD,
  uniqueEmail,
  type TestServer,
} from "./helpers";

const SITE = "http://localhost:3000";
let server: TestServer;
let target: SetupAdminTarget;

beforeAll(async () => {
  const { pg } = await freshDb({ seed: false });
  const started = await startEmbeddedServer({ db: pg, port: 0, rateLimits: NO_RATE_LIMITS, siteUrl: SITE });
  server = {
    ...started,
    async stop() {
      await started.close();
      await pg.close();
    },
  };
  target = { supabaseUrl: server.url, secretKey: SECRET_KEY, siteUrl: SITE };
});
afterAll(() => server?.stop());

async function roleOf(email: string): Promise<{ role: string; approved: boolean } | undefined> {
  const { rows } = await server.db.query<{ role: string; approved: boolean }>(
    `select a.role::text as role, a.approved from public.user_account_data a join auth.users u on u.id = a.id
      where lower(u.email) = lower($1)`,
    [email],
  );
  return rows[0];
}

async function audit(action: string): Promise<Array<{ subject_id: string | null; details: Record<string, unknown> }>> {
  const { rows } = await server.db.query<{ subject_id: string | null; details: Record<string, unknown> }>(
    "select subject_id, details from public.activity_log where action = $1 order by id",
    [action],
  );
  return rows;
}

/** The code and next path the invitation's link carries. */
async function invitationLink(email: string): Promise<URL> {
  const [mail] = await mailFor(server, email);
  expect(mail?.kind).toBe("invite");
  const link = mail!.body.match(/https?:\/\/\S+\/auth\/confirm\?\S+/)?.[0];
  return new URL(link!);
}

describe("npm run setup:admin", () => {
  const first = uniqueEmail("operator");

  it("invites the address, and its account becomes super admin only when it accepts", async () => {
    expect((await server.db.query("select 1 from public.user_account_data where role = 'super_admin'")).rows).toEqual(
      [],
    );
    await setupAdmin(target, { email: first, another: false });

    const link = await invitationLink(first);
    expect(`${link.origin}${link.pathname}`).toBe(`${SITE}/auth/confirm`);
    expect(link.searchParams.get("type")).toBe("invite");
    expect(link.searchParams.get("next")).toBe(`${SITE}/auth/set-password`);
    // Invited, asked no date of birth, and not yet anything but a player.
    expect(await roleOf(first)).toEqual({ role: "user", approved: false });

    const accepted = await client(server).auth.verifyOtp({
      email: first,
      token: link.searchParams.get("code")!,
      type: "invite",
    });
    expect(accepted.error).toBeNull();
    expect(await roleOf(first)).toEqual({ role: "super_admin", approved: true });

    const id = accepted.data.user!.id;
    expect(await audit("user.super_admin_invited")).toEqual([
      { subject_id: null, details: { email: first, another: false } },
    ]);
    expect(await audit("user.super_admin_accepted")).toEqual([
      { subject_id: id, details: expect.objectContaining({ email: first }) },
    ]);
  });

  it("is refused once a super admin exists, unless told --another", async () => {
    const second = uniqueEmail("second");
    await expect(setupAdmin(target, { email: second, another: false })).rejects.toThrow(
      /A super admin already exists.*--another/,
    );
    expect(await mailFor(server, second)).toEqual([]);
    expect(await audit("user.super_admin_invited")).toHaveLength(1);

    await setupAdmin(target, { email: second, another: true });
    expect(await audit("user.super_admin_invited")).toHaveLength(2);
    const link = await invitationLink(second);
    await client(server).auth.verifyOtp({ email: second, token: link.searchParams.get("code")!, type: "invite" });
    expect(await roleOf(second)).toEqual({ role: "super_admin", approved: true });
  });

  it("never invites an address that already has an account of its own", async () => {
    const taken = uniqueEmail("taken");
    const signedUp = await client(server).auth.signUp({
      email: taken,
      password: STRONG_PASSWORD,
      options: { data: { date_of_birth: birthDateYearsAgo(30) } },
    });
    expect(signedUp.error).toBeNull();
    await expect(setupAdmin(target, { email: taken, another: true })).rejects.toThrow(/already has an account/);
    expect(await roleOf(taken)).toEqual(expect.objectContaining({ role: "user" }));
  });

  it("gives the role to the invited account alone: a sign-up for the invited address gets nothing", async () => {
    const invited = uniqueEmail("pending");
    await setupAdmin(target, { email: invited, another: true });
    // Someone else tries the address with a password of their own while the invitation waits.
    await client(server).auth.signUp({
      email: invited,
      password: STRONG_PASSWORD,
      options: { data: { date_of_birth: birthDateYearsAgo(30) } },
    });
    const stranger = await client(server).auth.signInWithPassword({ email: invited, password: STRONG_PASSWORD });
    expect(stranger.error).not.toBeNull();
    expect(stranger.data.session).toBeNull();
    expect(await roleOf(invited)).toEqual({ role: "user", approved: false });

    // The invitation's own code still makes its account super admin, and the stranger's password opens nothing.
    const link = await invitationLink(invited);
    await client(server).auth.verifyOtp({ email: invited, token: link.searchParams.get("code")!, type: "invite" });
    expect(await roleOf(invited)).toEqual({ role: "super_admin", approved: true });
    const after = await client(server).auth.signInWithPassword({ email: invited, password: STRONG_PASSWORD });
    expect(after.error?.code).toBe("invalid_credentials");
  });

  it("records an invitation only for the secret key", async () => {
    const { error } = await client(server).rpc("invite_super_admin", { p_email: uniqueEmail("anon"), p_another: true });
    expect(error).toMatchObject({ code: "42501", message: "permission denied for function invite_super_admin" });
  });

  it("reads one address and --another, refusing anything else with the usage", () => {
    expect(parseSetupAdminArgs(["Me@Example.com"])).toEqual({ email: "me@example.com", another: false });
    expect(parseSetupAdminArgs(["--another", "me@example.com"])).toEqual({ email: "me@example.com", another: true });
    expect(() => parseSetupAdminArgs([])).toThrow(SetupAdminError);
    expect(() => parseSetupAdminArgs(["a@b.co", "c@d.co"])).toThrow(/Usage/);
    expect(() => parseSetupAdminArgs(["me@example.com", "--force"])).toThrow(/Usage/);
    expect(() => parseSetupAdminArgs(["not-an-address"])).toThrow(/e-mail address/);
  });
});
