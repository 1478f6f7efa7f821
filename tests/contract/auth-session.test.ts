import { isAuthSessionMissingError, isAuthWeakPasswordError } from "@supabase/supabase-js";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import type { EmbeddedServer } from "@labcash/embedded-supabase/server";
import { startEmbeddedServer } from "@/supabase/embedded";
import { birthDateYearsAgo, client, DEMO_PASSWORD, raw, signIn, STRONG_PASSWORD, uniqueEmail } from "./helpers";
import { contractServer } from "./support/server";

const contract = contractServer();

async function newUser(password = STRONG_PASSWORD) {
  const email = uniqueEmail("session");
  const { error } = await client(contract.server).auth.signUp({
    email,
    password,
    options: { data: { name: "Sam Session", date_of_birth: birthDateYearsAgo(30) } },
  });
  if (error) throw error;
  return email;
}

function swapPayload(token: string, change: (claims: Record<string, unknown>) => void): string {
  const [h, p, s] = token.split(".");
  const claims = JSON.parse(Buffer.from(p, "base64url").toString());
  change(claims);
  return [h, Buffer.from(JSON.stringify(claims)).toString("base64url"), s].join(".");
}

describe("refresh tokens", () => {
  it("rotates on every use and refuses an older token, ending the session", async () => {
    const { client: c, session } = await signIn(contract.server, "player@labcash.test");
    const first = session.refresh_token;
    const { data, error } = await c.auth.refreshSession();
    expect(error).toBeNull();
    const second = data.session!.refresh_token;
    expect(second).not.toBe(first);
    expect(data.session!.access_token).not.toBe(session.access_token);
    const third = (await c.auth.refreshSession()).data.session!.refresh_token;

    const reuse = await client(contract.server).auth.refreshSession({ refresh_token: first });
    expect(reuse.error?.code).toBe("refresh_token_already_used");
    expect(reuse.error?.status).toBe(400);

    // Reuse looks like theft, so the newest token of that session is revoked too.
    const afterTheft = await client(contract.server).auth.refreshSession({ refresh_token: third });
    expect(afterTheft.error?.code).toBe("refresh_token_already_used");
  });

  it("the parent of the active token, presented again at any time, gets the active token back (a lost response)", async () => {
    const { client: c, session } = await signIn(contract.server, "player@labcash.test");
    const active = (await c.auth.refreshSession()).data.session!.refresh_token;
    // This server's reuse interval is 0, so only the parent rule can let it through.
    const again = await client(contract.server).auth.refreshSession({ refresh_token: session.refresh_token });
    expect(again.error).toBeNull();
    expect(again.data.session!.refresh_token).toBe(active);
    expect((await client(contract.server).auth.refreshSession({ refresh_token: active })).error).toBeNull();
  });

  it("refuses an unknown token", async () => {
    const { error } = await client(contract.server).auth.refreshSession({ refresh_token: "not-a-token" });
    expect(error?.code).toBe("refresh_token_not_found");
  });

  it("within the reuse interval, a just-rotated token returns the current session (parallel refreshes)", async () => {
    let lenient: EmbeddedServer | undefined;
    try {
      lenient = await startEmbeddedServer({ db: contract.server.db, port: 0, refreshReuseSeconds: 10 });
      const { session } = await signIn(lenient, "player@labcash.test");
      const a = await client(lenient).auth.refreshSession({ refresh_token: session.refresh_token });
      const b = await client(lenient).auth.refreshSession({ refresh_token: session.refresh_token });
      expect(a.error).toBeNull();
      expect(b.error).toBeNull();
      expect(b.data.session!.refresh_token).toBe(a.data.session!.refresh_token);
    } finally {
      await lenient?.close();
    }
  });
});

describe("access tokens", () => {
  it("verify locally through the JWKS with GoTrue's claims", async () => {
    const { client: c, session } = await signIn(contract.server, "player@labcash.test");
    const { data, error } = await c.auth.getClaims();
    expect(error).toBeNull();
    const claims = data!.claims;
    expect(claims).toMatchObject({
      iss: `${contract.server.url}/auth/v1`,
      sub: "00000000-0000-4000-8000-000000000003",
      aud: "authenticated",
      role: "authenticated",
      email: "player@labcash.test",
      aal: "aal1",
      is_anonymous: false,
      app_metadata: { provider: "email" },
      user_metadata: { name: "Priya Player" },
    });
    expect(claims.exp - claims.iat).toBe(3600);
    expect(claims.amr?.[0]).toMatchObject({ method: "password" });
    expect(typeof claims.session_id).toBe("string");
    expect(data!.header).toMatchObject({ alg: "ES256", typ: "JWT" });

    const jwks = await (await raw(contract.server, "/auth/v1/.well-known/jwks.json", { key: null })).json();
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", kid: data!.header.kid });
    expect(jwks.keys[0].d).toBeUndefined();
    expect(session.expires_at).toBe(claims.exp);
  });

  it("a tampered or foreign token is rejected by getClaims, GoTrue and PostgREST", async () => {
    const { session } = await signIn(contract.server, "player@labcash.test");
    const tampered = swapPayload(session.access_token, (c) => {
      c.sub = "00000000-0000-4000-8000-000000000001";
    });
    const local = await client(contract.server).auth.getClaims(tampered);
    expect(local.data).toBeNull();
    expect(local.error?.message).toMatch(/signature/i);

    const { privateKey, publicKey } = await generateKeyPair("ES256");
    const jwk = await exportJWK(publicKey);
    const foreign = await new SignJWT({ sub: "00000000-0000-4000-8000-000000000001", role: "authenticated" })
      .setProtectedHeader({ alg: "ES256", kid: "someone-else", typ: "JWT" })
      .setExpirationTime("1h")
      .sign(privateKey);
    expect(jwk.kty).toBe("EC");

    const user = await client(contract.server).auth.getUser(foreign);
    expect(user.error?.status).toBe(403);
    expect(user.error?.code).toBe("bad_jwt");

    const rpc = await raw(contract.server, "/rest/v1/rpc/get_my_account", {
      method: "POST",
      headers: { authorization: `Bearer ${tampered}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(rpc.status).toBe(401);
    expect(await rpc.json()).toMatchObject({ code: "PGRST301" });
  });
});

describe("the signed-in user", () => {
  it("updates the password: the new one signs in, the old one no longer does", async () => {
    const email = await newUser();
    const { client: c } = await signIn(contract.server, email, STRONG_PASSWORD);
    const weak = await c.auth.updateUser({ password: "weak" });
    expect(isAuthWeakPasswordError(weak.error)).toBe(true);
    const same = await c.auth.updateUser({ password: STRONG_PASSWORD });
    expect(same.error?.code).toBe("same_password");

    const { error } = await c.auth.updateUser({ password: "Another-pass-77" });
    expect(error).toBeNull();
    expect(
      (await client(contract.server).auth.signInWithPassword({ email, password: STRONG_PASSWORD })).error?.code,
    ).toBe("invalid_credentials");
    expect(
      (await client(contract.server).auth.signInWithPassword({ email, password: "Another-pass-77" })).error,
    ).toBeNull();
  });

  it("merges user metadata and the next token carries it", async () => {
    const email = await newUser();
    const { client: c } = await signIn(contract.server, email, STRONG_PASSWORD);
    const { data, error } = await c.auth.updateUser({ data: { favourite: "spinner" } });
    expect(error).toBeNull();
    expect(data.user?.user_metadata).toMatchObject({ name: "Sam Session", favourite: "spinner" });
    await c.auth.refreshSession();
    const claims = (await c.auth.getClaims()).data!.claims;
    expect(claims.user_metadata).toMatchObject({ favourite: "spinner" });
  });

  it("getUser returns the user for a live session", async () => {
    const { client: c } = await signIn(contract.server, "admin@labcash.test", DEMO_PASSWORD);
    const { data, error } = await c.auth.getUser();
    expect(error).toBeNull();
    expect(data.user?.email).toBe("admin@labcash.test");
  });
});

describe("sign-out", () => {
  it("global: every session ends; refresh and the old access token stop working", async () => {
    const email = await newUser();
    const a = await signIn(contract.server, email, STRONG_PASSWORD);
    const b = await signIn(contract.server, email, STRONG_PASSWORD);
    expect((await a.client.auth.signOut({ scope: "global" })).error).toBeNull();

    const refresh = await client(contract.server).auth.refreshSession({ refresh_token: b.session.refresh_token });
    expect(refresh.error?.code).toBe("refresh_token_not_found");
    const user = await client(contract.server).auth.getUser(a.session.access_token);
    expect(isAuthSessionMissingError(user.error)).toBe(true);
  });

  it("local ends only this session; others ends all but this one", async () => {
    const email = await newUser();
    const a = await signIn(contract.server, email, STRONG_PASSWORD);
    const b = await signIn(contract.server, email, STRONG_PASSWORD);
    const c = await signIn(contract.server, email, STRONG_PASSWORD);

    await a.client.auth.signOut({ scope: "local" });
    expect(
      (await client(contract.server).auth.refreshSession({ refresh_token: a.session.refresh_token })).error,
    ).not.toBeNull();
    expect((await b.client.auth.getUser()).error).toBeNull();

    await b.client.auth.signOut({ scope: "others" });
    expect((await b.client.auth.refreshSession()).error).toBeNull();
    expect(
      (await client(contract.server).auth.refreshSession({ refresh_token: c.session.refresh_token })).error?.code,
    ).toBe("refresh_token_not_found");
  });
});
