import { isAuthApiError, isAuthWeakPasswordError } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { birthDateYearsAgo, client, DEMO_PASSWORD, raw, STRONG_PASSWORD, uniqueEmail } from "./helpers";
import { contractServer } from "./support/server";

const contract = contractServer();

describe("sign-up", () => {
  it("returns a session and creates the profile and account rows", async () => {
    const email = uniqueEmail("new");
    const supabase = client(contract.server);
    const { data, error } = await supabase.auth.signUp({
      email,
      password: STRONG_PASSWORD,
      options: { data: { name: "Nina New", date_of_birth: birthDateYearsAgo(30) } },
    });
    expect(error).toBeNull();
    expect(data.session?.access_token).toBeTruthy();
    expect(data.session?.refresh_token).toBeTruthy();
    expect(data.session?.expires_in).toBe(3600);
    expect(data.user?.email).toBe(email);
    expect(data.user?.user_metadata.name).toBe("Nina New");
    expect(data.user?.identities?.[0]?.provider).toBe("email");

    const { rows } = await contract.server.db.query<{ name: string; email: string }>(
      "select name, email from public.profiles where id = $1",
      [data.user!.id],
    );
    expect(rows).toEqual([{ name: "Nina New", email }]);

    const account = await supabase.rpc("get_my_account");
    expect(account.error).toBeNull();
    expect(account.data).toMatchObject({ email, credits: 0, role: "user", approved: false, kyc_status: "none" });
  });

  it("refuses a weak password with GoTrue's reasons", async () => {
    const { data, error } = await client(contract.server).auth.signUp({ email: uniqueEmail(), password: "abc" });
    expect(data.session).toBeNull();
    expect(isAuthWeakPasswordError(error)).toBe(true);
    if (!isAuthWeakPasswordError(error)) throw error;
    expect(error.status).toBe(422);
    expect(error.code).toBe("weak_password");
    expect(error.reasons).toEqual(["length", "characters"]);

    const second = await client(contract.server).auth.signUp({ email: uniqueEmail(), password: "longenough1" });
    expect(isAuthWeakPasswordError(second.error) && second.error.reasons).toEqual(["characters"]);
  });

  it("answers the legacy error shape when no API version is sent", async () => {
    const res = await raw(contract.server, "/auth/v1/signup", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: uniqueEmail(), password: "short" }),
    });
    expect(res.status).toBe(422);
    expect(res.headers.get("x-supabase-api-version")).toBeNull();
    expect(await res.json()).toMatchObject({
      code: 422,
      error_code: "weak_password",
      msg: expect.stringContaining("at least 8 characters"),
      weak_password: { reasons: ["length", "characters"] },
    });
  });

  it("refuses an address that is already registered", async () => {
    const { error } = await client(contract.server).auth.signUp({
      email: "player@labcash.test",
      password: STRONG_PASSWORD,
    });
    expect(isAuthApiError(error)).toBe(true);
    expect(error?.code).toBe("user_already_exists");
    expect(error?.status).toBe(422);
  });

  it("passes the under-18 refusal from the database trigger to the client", async () => {
    const email = uniqueEmail("young");
    const { data, error } = await client(contract.server).auth.signUp({
      email,
      password: STRONG_PASSWORD,
      options: { data: { name: "Too Young", date_of_birth: birthDateYearsAgo(17) } },
    });
    expect(data.user).toBeNull();
    expect(isAuthApiError(error)).toBe(true);
    expect(error?.status).toBe(422);
    expect(error?.message).toContain("You must be 18 or over to join LabCash");
    const { rows } = await contract.server.db.query("select 1 from auth.users where email = $1", [email]);
    expect(rows).toHaveLength(0);
  });

  it("refuses an invalid e-mail address as GoTrue's validateEmail does", async () => {
    const { error } = await client(contract.server).auth.signUp({ email: "not-an-address", password: STRONG_PASSWORD });
    expect(error?.code).toBe("validation_failed");
    expect(error?.status).toBe(400);
    expect(error?.message).toBe("Unable to validate email address: invalid format");
  });

  it("checks the password before the address, and takes no address at all as an anonymous sign-in", async () => {
    const weak = await client(contract.server).auth.signUp({ email: "not-an-address", password: "weak" });
    expect(weak.error?.code).toBe("weak_password");
    const noPassword = await client(contract.server).auth.signUp({ email: uniqueEmail(), password: "" });
    expect(noPassword.error).toMatchObject({ status: 400, message: "Signup requires a valid password" });
    const anonymous = await client(contract.server).auth.signUp({ email: "", password: STRONG_PASSWORD });
    expect(anonymous.error).toMatchObject({ status: 422, code: "anonymous_provider_disabled" });
  });
});

describe("sign-in", () => {
  it("signs in a seeded user (pgcrypto bcrypt hashes verify with bcryptjs)", async () => {
    const { data, error } = await client(contract.server).auth.signInWithPassword({
      email: "player@labcash.test",
      password: DEMO_PASSWORD,
    });
    expect(error).toBeNull();
    expect(data.user?.id).toBe("00000000-0000-4000-8000-000000000003");
    expect(data.session?.token_type).toBe("bearer");
    expect(data.user?.last_sign_in_at).toBeTruthy();
  });

  it("is case-insensitive about the address", async () => {
    const { error } = await client(contract.server).auth.signInWithPassword({
      email: "Player@LabCash.test",
      password: DEMO_PASSWORD,
    });
    expect(error).toBeNull();
  });

  it("refuses a wrong password and an unknown address alike", async () => {
    for (const [email, password] of [
      ["player@labcash.test", "Wrong-password-1"],
      ["nobody@labcash.test", DEMO_PASSWORD],
    ]) {
      const { data, error } = await client(contract.server).auth.signInWithPassword({ email, password });
      expect(data.session).toBeNull();
      expect(error?.code).toBe("invalid_credentials");
      expect(error?.status).toBe(400);
      expect(error?.message).toBe("Invalid login credentials");
    }
  });

  it("serves settings and health", async () => {
    const settings = await (await raw(contract.server, "/auth/v1/settings")).json();
    expect(settings).toMatchObject({ external: { email: true }, mailer_autoconfirm: true, disable_signup: false });
    const health = await raw(contract.server, "/auth/v1/health", { key: null });
    expect(health.status).toBe(200);
  });
});
