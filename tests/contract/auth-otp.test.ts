// GoTrue's POST /otp (e-mail sign-in link and code) and GET /reauthenticate (a nonce by e-mail), as
// auth-js calls them: signInWithOtp, verifyOtp and reauthenticate.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  birthDateYearsAgo,
  client,
  DEMO_PASSWORD,
  mailFor,
  PUBLISHABLE_KEY,
  raw,
  signIn,
  startTestServer,
  tokenHashFrom,
  uniqueEmail,
  type TestServer,
} from "./helpers";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.stop());

describe("POST /otp", () => {
  it("mails an existing player a sign-in link and a code; either signs them in", async () => {
    const email = "player@labcash.test";
    const { data, error } = await client(server).auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
    expect(error).toBeNull();
    expect(data).toEqual({ user: null, session: null });
    const [mail] = await mailFor(server, email);
    expect(mail).toMatchObject({ kind: "magiclink", subject: "Your LabCash sign-in link" });
    expect(mail.token).toMatch(/^\d{6}$/);
    const byCode = await client(server).auth.verifyOtp({ email, token: mail.token!, type: "email" });
    expect(byCode.error).toBeNull();
    expect(byCode.data.session?.user.email).toBe(email);

    await client(server).auth.signInWithOtp({ email });
    const [second] = await mailFor(server, email);
    const { tokenHash, type } = tokenHashFrom(second.body);
    expect(type).toBe("magiclink");
    const byLink = await client(server).auth.verifyOtp({ token_hash: tokenHash, type: "magiclink" });
    expect(byLink.error).toBeNull();
  });

  it("refuses an unknown address when sign-ups are not wanted, and signs a new one up when they are", async () => {
    const refused = await client(server).auth.signInWithOtp({
      email: uniqueEmail("new"),
      options: { shouldCreateUser: false },
    });
    expect(refused.error).toMatchObject({ status: 422, code: "otp_disabled", message: "Signups not allowed for otp" });

    const email = uniqueEmail("new");
    const created = await client(server).auth.signInWithOtp({
      email,
      options: { data: { name: "New", date_of_birth: birthDateYearsAgo(25) } },
    });
    expect(created.error).toBeNull();
    expect((await mailFor(server, email)).map((m) => m.kind)).toEqual(["magiclink"]);
    // LabCash's rule holds on this path too: no date of birth, no account.
    const noBirthDate = await client(server).auth.signInWithOtp({ email: uniqueEmail("new") });
    expect(noBirthDate.error).toMatchObject({ status: 422 });
  });

  it("refuses phone sign-in, as a project without SMS does", async () => {
    const phone = await client(server).auth.signInWithOtp({ phone: "+447700900123" });
    expect(phone.error).toMatchObject({ status: 400, code: "phone_provider_disabled" });
  });
});

describe("GET /reauthenticate", () => {
  it("mails the signed-in user a nonce, kept as GoTrue keeps it (sha224 of address and code)", async () => {
    const { client: c } = await signIn(server, "player@labcash.test", DEMO_PASSWORD);
    const { data, error } = await c.auth.reauthenticate();
    expect(error).toBeNull();
    expect(data).toEqual({ user: null, session: null });
    const [mail] = await mailFor(server, "player@labcash.test");
    expect(mail.kind).toBe("reauthentication");
    expect(mail.body).toContain(mail.token!);
    const { rows } = await server.db.query<{ reauthentication_token: string }>(
      "select reauthentication_token from auth.users where email = 'player@labcash.test'",
    );
    const expected = createHash("sha224").update(`player@labcash.test${mail.token}`).digest("hex");
    expect(rows[0].reauthentication_token).toBe(expected);
  });

  it("signed out, answers as GoTrue does that there is no address to send to", async () => {
    // auth-js refuses this itself now; older clients send the API key as the bearer, as here.
    const res = await raw(server, "/auth/v1/reauthenticate", {
      headers: { authorization: `Bearer ${PUBLISHABLE_KEY}`, "x-supabase-api-version": "2024-01-01" },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: "validation_failed",
      message: "Reauthentication requires the user to have an email or a phone number",
    });
  });
});
