import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient, client, PLAYER_ID, raw, SECRET_KEY, signIn, startTestServer, type TestServer } from "./helpers";

let server: TestServer;

// Throwaway functions that exist only in this file's database, created as the
// superuser, to reach each PostgREST error mapping and result shape.
const FIXTURES = `
  create table public.t_items (id int primary key, name text unique, parent int references public.t_items (id));
  alter table public.t_items enable row level security;

  create function public.t_fail(kind text) returns void
  language plpgsql security definer set search_path = '' as $$
  begin
    case kind
      when 'raise' then raise exception 'Custom failure' using detail = 'Some detail', hint = 'Try again';
      when 'unique' then insert into public.t_items values (1, 'a'); insert into public.t_items values (2, 'a');
      when 'fk' then insert into public.t_items values (3, 'b', 999);
      when 'check' then raise exception 'Bad value' using errcode = '23514';
      when 'data' then perform 1 / 0;
      when 'custom' then raise exception 'Payment required' using errcode = 'PT402';
      when 'no_data' then raise exception 'Nothing here' using errcode = 'P0002';
      else null;
    end case;
  end $$;
  grant execute on function public.t_fail(text) to anon, authenticated;

  create function public.t_server_only() returns text language sql as $$ select 'ok'::text $$;
  revoke execute on function public.t_server_only() from public;
  grant execute on function public.t_server_only() to service_role;

  create function public.t_rows(n int) returns table (i int, label text)
  language sql stable as $$ select g, 'row ' || g from generate_series(1, n) g $$;
  create function public.t_numbers(n int) returns setof int
  language sql stable as $$ select generate_series(1, n) $$;
  create function public.t_echo(ids int[], doc jsonb, note text default 'none', amount numeric default null)
  returns jsonb language sql stable as $$
    select jsonb_build_object('ids', ids, 'count', cardinality(ids), 'doc', doc, 'note', note, 'amount', amount + 0.1)
  $$;
  create function public.t_pair(a int, b int default 2) returns int language sql stable as $$ select a * b $$;
  create function public.t_item() returns public.t_items language sql stable as $$ select 7, 'seven', null::int $$;
  create function public.t_write() returns int language sql volatile security definer as $$ insert into public.t_items values (50, 'w') returning id $$;
  create function public.t_whoami() returns jsonb language sql stable as $$
    select jsonb_build_object('role', current_user, 'uid', auth.uid(), 'claims_role', auth.role())
  $$;
  grant execute on function public.t_rows(int), public.t_numbers(int), public.t_echo(int[], jsonb, text, numeric),
    public.t_pair(int, int), public.t_item(), public.t_write(), public.t_whoami() to anon, authenticated, service_role;
`;

beforeAll(async () => {
  server = await startTestServer();
  await server.db.exec(FIXTURES);
});
afterAll(() => server?.stop());

describe("RPC success", () => {
  it("get_my_account after sign-in", async () => {
    const { client: c } = await signIn(server, "player@labcash.test");
    const { data, error, status } = await c.rpc("get_my_account");
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data).toMatchObject({ id: PLAYER_ID, email: "player@labcash.test", credits: 76.25, approved: true });
  });

  it("add_credits with the secret key returns the new balance", async () => {
    const { data, error } = await adminClient(server).rpc("add_credits", { user_id: PLAYER_ID, amount: 10.5 });
    expect(error).toBeNull();
    expect(data).toBe(86.75);
    const { client: c } = await signIn(server, "player@labcash.test");
    expect((await c.rpc("get_credit_balance", { user_id: PLAYER_ID })).data).toBe(86.75);
  });

  it("runs as the caller's role with the caller's claims", async () => {
    const anon = await client(server).rpc("t_whoami");
    expect(anon.data).toEqual({ role: "anon", uid: null, claims_role: "anon" });
    const service = await adminClient(server).rpc("t_whoami");
    expect(service.data).toEqual({ role: "service_role", uid: null, claims_role: "service_role" });
    const { client: c } = await signIn(server, "player@labcash.test");
    expect((await c.rpc("t_whoami")).data).toEqual({
      role: "authenticated",
      uid: PLAYER_ID,
      claims_role: "authenticated",
    });
  });

  it("shapes results like PostgREST", async () => {
    const anon = client(server);
    expect((await anon.rpc("t_rows", { n: 2 })).data).toEqual([
      { i: 1, label: "row 1" },
      { i: 2, label: "row 2" },
    ]);
    expect((await anon.rpc("t_rows", { n: 0 })).data).toEqual([]);
    expect((await anon.rpc("t_numbers", { n: 3 })).data).toEqual([1, 2, 3]);
    expect((await anon.rpc("t_item")).data).toEqual({ id: 7, name: "seven", parent: null });
    const voidCall = await anon.rpc("t_fail", { kind: "nothing" });
    expect(voidCall.error).toBeNull();
    expect(voidCall.status).toBe(204);
    expect(voidCall.data).toBeNull();
  });

  it("casts arguments to the declared types and uses defaults", async () => {
    const anon = client(server);
    const { data, error } = await anon.rpc("t_echo", { ids: [3, 4, 5], doc: { a: [1, { b: true }] }, amount: 0.2 });
    expect(error).toBeNull();
    expect(data).toEqual({ ids: [3, 4, 5], count: 3, doc: { a: [1, { b: true }] }, note: "none", amount: 0.3 });
    expect((await anon.rpc("t_pair", { a: 5 })).data).toBe(10);
    expect((await anon.rpc("t_pair", { a: 5, b: 3 })).data).toBe(15);
  });

  it("GET calls stable functions with query arguments and refuses writes", async () => {
    const anon = client(server);
    const got = await anon.rpc("t_rows", { n: 1 }, { get: true });
    expect(got.error).toBeNull();
    expect(got.data).toEqual([{ i: 1, label: "row 1" }]);
    const write = await anon.rpc("t_write", {}, { get: true });
    expect(write.status).toBe(405);
    expect(write.error?.code).toBe("25006");
    expect((await anon.rpc("t_write")).data).toBe(50);
  });

  it("sees a function changed while the server runs: a new default, a drop and create, a new overload", async () => {
    const anon = client(server);
    await server.db.exec(`create function public.t_changing(a int) returns int language sql stable as $$ select a $$;
      grant execute on function public.t_changing(int) to anon;`);
    expect((await anon.rpc("t_changing", { a: 1 })).data).toBe(1);
    expect((await anon.rpc("t_changing", {})).error?.code).toBe("PGRST202");
    await server.db.exec(`create or replace function public.t_changing(a int default 7) returns int language sql stable
      as $$ select a $$;`);
    expect((await anon.rpc("t_changing", {})).data).toBe(7);
    await server.db.exec(`drop function public.t_changing(int);
      create function public.t_changing(b text) returns text language sql stable as $$ select b $$;
      grant execute on function public.t_changing(text) to anon;`);
    expect((await anon.rpc("t_changing", { b: "x" })).data).toBe("x");
    expect((await anon.rpc("t_changing", { a: 1 })).error?.code).toBe("PGRST202");
    await server.db
      .exec(`create function public.t_changing(a int, c int) returns int language sql stable as $$ select a + c $$;
      grant execute on function public.t_changing(int, int) to anon;`);
    expect((await anon.rpc("t_changing", { a: 1, c: 2 })).data).toBe(3);
    expect((await anon.rpc("t_changing", { b: "y" })).data).toBe("y");
  });

  it(".single() returns one object, or 406 PGRST116 when not exactly one row; .maybeSingle() allows none", async () => {
    const anon = client(server);
    expect((await anon.rpc("t_rows", { n: 1 }).single()).data).toEqual({ i: 1, label: "row 1" });
    const many = await anon.rpc("t_rows", { n: 2 }).single();
    expect(many.status).toBe(406);
    expect(many.error).toMatchObject({ code: "PGRST116", details: "The result contains 2 rows" });
    const none = await anon.rpc("t_rows", { n: 0 }).single();
    expect(none.error?.code).toBe("PGRST116");
    const maybe = await anon.rpc("t_rows", { n: 0 }).maybeSingle();
    expect(maybe.error).toBeNull();
    expect(maybe.data).toBeNull();
  });
});

describe("RPC errors in PostgREST's shape and status", () => {
  const cases: [string, number, string][] = [
    ["raise", 400, "P0001"],
    ["unique", 409, "23505"],
    ["fk", 409, "23503"],
    ["check", 400, "23514"],
    ["data", 400, "22012"],
    ["custom", 402, "PT402"],
    ["no_data", 500, "P0002"],
  ];
  for (const [kind, status, code] of cases) {
    it(`${code} → ${status}`, async () => {
      const res = await client(server).rpc("t_fail", { kind });
      expect(res.status).toBe(status);
      expect(res.error?.code).toBe(code);
      expect(res.error).toHaveProperty("details");
      expect(res.error).toHaveProperty("hint");
    });
  }

  it("P0001 carries message, details and hint", async () => {
    const { error } = await client(server).rpc("t_fail", { kind: "raise" });
    expect(error).toMatchObject({ message: "Custom failure", details: "Some detail", hint: "Try again" });
  });

  it("42501 is 401 for anon and 403 for a signed-in user", async () => {
    const anon = await client(server).rpc("t_server_only");
    expect(anon.status).toBe(401);
    expect(anon.error?.code).toBe("42501");
    const { client: c } = await signIn(server, "player@labcash.test");
    const user = await c.rpc("t_server_only");
    expect(user.status).toBe(403);
    expect(user.error?.code).toBe("42501");
    const denied = await c.rpc("admin_list_pending_approvals");
    expect(denied.status).toBe(403);
    expect(denied.error?.message).toBe("Access denied: Admin privileges required");
    expect((await adminClient(server).rpc("t_server_only")).data).toBe("ok");
  });

  it("an unknown function or argument is 404 PGRST202", async () => {
    const unknown = await client(server).rpc("no_such_function");
    expect(unknown.status).toBe(404);
    expect(unknown.error?.code).toBe("PGRST202");
    const badArg = await client(server).rpc("t_pair", { a: 1, c: 2 });
    expect(badArg.status).toBe(404);
    expect(badArg.error?.code).toBe("PGRST202");
    expect(badArg.error?.hint).toBe("Perhaps you meant to call the function public.t_pair(a, b)");
  });

  it("tables are not exposed", async () => {
    const res = await client(server).from("profiles").select("*");
    expect(res.status).toBe(404);
    expect(res.error?.code).toBe("PGRST205");
  });

  it("a bad value for a typed argument is a 400, not a crash", async () => {
    const res = await client(server).rpc("t_pair", { a: "not a number" });
    expect(res.status).toBe(400);
    expect(res.error?.code).toBe("22P02");
  });
});

describe("HTTP hardening", () => {
  const post = (body: string, headers: Record<string, string> = { "content-type": "application/json" }) =>
    raw(server, "/rest/v1/rpc/t_pair", { method: "POST", headers, body });

  it("malformed JSON → 400 PGRST102", async () => {
    const res = await post("{nope");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "PGRST102" });
    const auth = await raw(server, "/auth/v1/token?grant_type=password", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{nope",
    });
    expect(auth.status).toBe(400);
    expect(await auth.json()).toMatchObject({ error_code: "bad_json" });
  });

  it("a content type PostgREST does not read → 400 PGRST102; text/plain looks for a single unnamed text parameter", async () => {
    const res = await post("<a>1</a>", { "content-type": "application/xml" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: "PGRST102",
      message: "Content-Type not acceptable: application/xml",
    });
    const text = await post("a=1", { "content-type": "text/plain" });
    expect(text.status).toBe(404);
    expect(await text.json()).toMatchObject({
      code: "PGRST202",
      message: "Could not find the function public.t_pair in the schema cache",
      details:
        "Searched for the function public.t_pair with a single unnamed text parameter, but no matches were found in the schema cache.",
      hint: null,
    });
  });

  it("a body over 1 MiB → 413", async () => {
    const big = JSON.stringify({ a: "x".repeat(1024 * 1024) });
    const res = await post(big);
    expect(res.status).toBe(413);
    const auth = await raw(server, "/auth/v1/signup", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: big,
    });
    expect(auth.status).toBe(413);
  });

  it("unknown routes → 404 JSON", async () => {
    for (const p of ["/nothing", "/auth/v1/nothing", "/storage/v1/object"]) {
      const res = await raw(server, p);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toContain("application/json");
      await res.json();
    }
  });

  it("API keys: missing or unknown → 401; the key as bearer counts as the key", async () => {
    const missing = await raw(server, "/rest/v1/rpc/t_numbers?n=1", { key: null });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ message: "No API key found in request" });
    const wrong = await raw(server, "/rest/v1/rpc/t_numbers?n=1", { key: "sb_publishable_wrong" });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ message: "Invalid API key" });
    const bearerOnly = await raw(server, "/rest/v1/rpc/t_whoami", {
      key: null,
      headers: { authorization: `Bearer ${SECRET_KEY}` },
    });
    expect(await bearerOnly.json()).toMatchObject({ role: "service_role" });
  });

  it("CORS preflight and headers", async () => {
    const res = await fetch(`${server.url}/rest/v1/rpc/get_my_account`, {
      method: "OPTIONS",
      headers: { origin: "http://localhost:3000", "access-control-request-method": "POST" },
    });
    expect(res.status).toBe(204);
    // The site's own origin only (gateway-hardening.test.ts checks other origins are not let read).
    expect(res.headers.get("access-control-allow-origin")).toBe("http://localhost:3000");
    expect(res.headers.get("access-control-allow-headers")).toContain("apikey");
    const get = await raw(server, "/rest/v1/rpc/t_numbers?n=1", { headers: { origin: "http://localhost:3000" } });
    expect(get.headers.get("access-control-allow-origin")).toBe("http://localhost:3000");
  });

  it("keeps serving after all of the above", async () => {
    expect((await client(server).rpc("t_pair", { a: 2 })).data).toBe(4);
  });
});
