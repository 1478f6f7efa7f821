// What a request can add after .rpc() (select, filters, order, range, count, media types, Prefer), answered as
// PostgREST answers it, and everything the embedded backend does not carry out refused with a 4xx that names it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, raw, startTestServer, type TestServer } from "./helpers";

let server: TestServer;

// Throwaway functions over a table of their own, created as the superuser. The table has a column whose name
// needs quoting and a row whose label is an injection attempt, so both travel through every path below.
const FIXTURES = `
  create table public.q_rows (
    id int primary key, label text, score numeric, tags text[], doc jsonb, "odd ""name""" text
  );
  alter table public.q_rows enable row level security;
  insert into public.q_rows values
    (1, 'alpha', 10, '{red,blue}', '{"k": "one", "n": {"m": 1}}', 'first'),
    (2, 'beta', 20, '{blue}', '{"k": "two"}', null),
    (3, 'gamma', null, '{}', null, 'third'),
    (4, $$x'); drop table public.q_rows; --$$, 40, '{red}', '{"k": "four"}', 'fourth');
  create table public.q_log (note text);
  alter table public.q_log enable row level security;

  create function public.q_list(upto int default 100) returns setof public.q_rows
  language sql stable security definer set search_path = '' as $$
    select * from public.q_rows where id <= upto order by id $$;
  create function public.q_shout(public.q_rows) returns text
  language sql stable as $$ select upper($1.label) $$;
  create function public.q_first() returns public.q_rows
  language sql stable security definer set search_path = '' as $$ select * from public.q_rows where id = 1 $$;
  create function public.q_total() returns int
  language sql stable security definer set search_path = '' as $$ select count(*)::int from public.q_rows $$;
  create function public.q_note(note text) returns setof public.q_log
  language sql volatile security definer set search_path = '' as $$
    insert into public.q_log values (note), (note || ' again') returning * $$;
  create function public.q_notes() returns int
  language sql stable security definer set search_path = '' as $$ select count(*)::int from public.q_log $$;
  create function public.q_log_sneakily() returns int
  language plpgsql volatile security definer set search_path = '' as $$
  begin insert into public.q_log values ('sneaky'); return 1; end $$;
  create function public.q_sneaky() returns int
  language sql stable security definer set search_path = '' as $$ select public.q_log_sneakily() $$;
  create function public.q_zone() returns text language sql stable as $$ select current_setting('timezone') $$;
  create function public.q_text(text) returns text language sql immutable as $$ select 'text: ' || $1 $$;
  create function public.q_json(jsonb) returns jsonb language sql immutable as $$ select $1 -> 'inner' $$;
  create function public.q_bytes(bytea) returns int language sql immutable as $$ select length($1) $$;
  create function public.q_over(a int) returns int language sql immutable as $$ select a $$;
  create function public.q_over(a text) returns text language sql immutable as $$ select a $$;
  grant execute on all functions in schema public to anon;
`;

beforeAll(async () => {
  server = await startTestServer();
  await server.db.exec(FIXTURES);
});
afterAll(() => server?.stop());

const rest = (path: string, init: RequestInit = {}) => raw(server, `/rest/v1/rpc/${path}`, init);

describe("select after .rpc()", () => {
  it("chooses, renames and casts columns, follows JSON paths and computed fields", async () => {
    const anon = client(server);
    const { data, error } = await anon
      .rpc("q_list", { upto: 2 })
      .select('id, name:label, score::text, kind:doc->>k, deep:doc->n->m, q_shout, "odd \\"name\\""');
    expect(error).toBeNull();
    expect(data).toEqual([
      { id: 1, name: "alpha", score: "10", kind: "one", deep: 1, q_shout: "ALPHA", 'odd "name"': "first" },
      { id: 2, name: "beta", score: "20", kind: "two", deep: null, q_shout: "BETA", 'odd "name"': null },
    ]);
  });

  it("aggregates, grouping by the other columns", async () => {
    const { data, error } = await client(server).rpc("q_list").select("total:score.sum(), rows:count()");
    expect(error).toBeNull();
    expect(data).toEqual([{ total: 70, rows: 4 }]);
  });

  it("answers an unknown column with Postgres's 42703, never with the whole row", async () => {
    const res = await client(server).rpc("q_list").select("nope");
    expect(res.status).toBe(400);
    expect(res.error).toMatchObject({ code: "42703" });
  });
});

describe("filters after .rpc()", () => {
  const ids = async (build: (q: ReturnType<ReturnType<typeof client>["rpc"]>) => PromiseLike<{ data: unknown }>) => {
    const { data } = await build(client(server).rpc("q_list").select("id"));
    return (data as { id: number }[] | null)?.map((r) => r.id);
  };

  it("compares, matches patterns, tests null and lists as PostgREST's operators", async () => {
    expect(await ids((q) => q.eq("label", "beta"))).toEqual([2]);
    expect(await ids((q) => q.neq("label", "beta"))).toEqual([1, 3, 4]);
    expect(await ids((q) => q.gt("score", 10).lte("score", 40))).toEqual([2, 4]);
    expect(await ids((q) => q.gte("id", 3).lt("id", 4))).toEqual([3]);
    expect(await ids((q) => q.like("label", "%a"))).toEqual([1, 2, 3]);
    expect(await ids((q) => q.ilike("label", "AL*"))).toEqual([1]);
    expect(await ids((q) => q.is("score", null))).toEqual([3]);
    expect(await ids((q) => q.in("id", [1, 3]))).toEqual([1, 3]);
    expect(await ids((q) => q.not("id", "in", "(1,3)"))).toEqual([2, 4]);
    expect(await ids((q) => q.contains("tags", ["red"]))).toEqual([1, 4]);
    expect(await ids((q) => q.or("id.eq.1,and(score.gte.20,label.not.eq.beta)"))).toEqual([1, 4]);
    expect(await ids((q) => q.filter("doc->>k", "eq", "two"))).toEqual([2]);
  });

  it("binds hostile values: the injection attempt is only a label to compare", async () => {
    const hostile = "x'); drop table public.q_rows; --";
    expect(await ids((q) => q.eq("label", hostile))).toEqual([4]);
    expect(await ids((q) => q.in("label", [hostile, "alpha"]))).toEqual([1, 4]);
    const injected = await client(server).rpc("q_list").select("id").eq("id", "1 or 1=1");
    expect(injected.status).toBe(400);
    expect(injected.error?.code).toBe("22P02");
    expect((await client(server).rpc("q_total")).data).toBe(4);
  });

  it("quotes hostile column names: one that does not exist is a 42703, not SQL", async () => {
    const res = await rest(
      `q_list?select=id&${encodeURIComponent('"id\\" = 1 or true; --"')}=eq.1&${encodeURIComponent('"x\\"y"')}=is.null`,
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "42703" });
    const alias = await rest(`q_list?upto=1&select=${encodeURIComponent('"a\\"; drop table q_rows; --":id')}`);
    expect(await alias.json()).toEqual([{ 'a"; drop table q_rows; --': 1 }]);
  });

  it("on GET, a value with an operator is a filter and the rest are the function's arguments", async () => {
    const { data, error } = await client(server).rpc("q_list", { upto: 3 }, { get: true }).select("id").gt("id", 1);
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 2 }, { id: 3 }]);
    const res = await rest("q_list?upto=eq.2&select=id");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "42703", message: "column pgrst_row.upto does not exist" });
    for (const path of [
      "q_list?or=(id.eq.1,not.id.eq.2)",
      "q_list?upto=not.3",
      "q_list?id=in.1,2",
      "q_list?id=is.maybe",
    ]) {
      const unparsed = await rest(path);
      expect(unparsed.status).toBe(400);
      expect(await unparsed.json()).toMatchObject({ code: "PGRST100" });
    }
  });

  it("filters a function that returns one row, answering null when the row is filtered out", async () => {
    const one = await client(server).rpc("q_first").select("id,label").eq("label", "alpha");
    expect(one.data).toEqual({ id: 1, label: "alpha" });
    const none = await client(server).rpc("q_first").select("id").eq("label", "nope");
    expect(none.error).toBeNull();
    expect(none.data).toBeNull();
  });
});

describe("order, limit, offset and range after .rpc()", () => {
  it("orders with nulls placement, limits and skips rows", async () => {
    const anon = client(server);
    const byScore = await anon.rpc("q_list").select("id").order("score", { ascending: false, nullsFirst: true });
    expect(byScore.data).toEqual([{ id: 3 }, { id: 4 }, { id: 2 }, { id: 1 }]);
    const page = await anon.rpc("q_list").select("id").order("id", { ascending: false }).range(1, 2);
    expect(page.data).toEqual([{ id: 3 }, { id: 2 }]);
    const limited = await anon.rpc("q_list").select("id").limit(1);
    expect(limited.data).toEqual([{ id: 1 }]);
  });

  it("honours the Range header and answers Content-Range, 206 for a part, 416 past the end", async () => {
    const part = await rest("q_list?select=id", { headers: { Range: "1-2", Prefer: "count=exact" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("1-2/4");
    expect(await part.json()).toEqual([{ id: 2 }, { id: 3 }]);
    const past = await rest("q_list?select=id&offset=9", { headers: { Prefer: "count=exact" } });
    expect(past.status).toBe(416);
    expect(await past.json()).toMatchObject({
      code: "PGRST103",
      details: "An offset of 9 was requested, but there are only 4 rows.",
    });
  });

  it("refuses a limit that is not a number instead of ignoring it", async () => {
    const res = await rest("q_list?limit=two");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "PGRST100" });
  });
});

describe("count, media types and Prefer after .rpc()", () => {
  it("counts a set past its page, and a scalar function as one row", async () => {
    const anon = client(server);
    const page = await anon.rpc("q_list", {}, { count: "exact" }).select("id").limit(2);
    expect(page.count).toBe(4);
    expect(page.data).toHaveLength(2);
    const scalar = await anon.rpc("q_total", {}, { count: "exact" });
    expect(scalar).toMatchObject({ count: 1, data: 4, status: 200 });
    const head = await anon.rpc("q_list", { upto: 3 }, { head: true, count: "exact" });
    expect(head).toMatchObject({ count: 3, data: null, status: 200 });
  });

  it("answers CSV and one object as asked", async () => {
    const anon = client(server);
    const csv = await anon.rpc("q_list", { upto: 2 }).select("id,label").csv();
    expect(csv.data).toBe("id,label\n1,alpha\n2,beta");
    expect((await anon.rpc("q_list").select("id").eq("id", 2).single()).data).toEqual({ id: 2 });
    expect((await anon.rpc("q_list").select("id").eq("id", 9).maybeSingle()).data).toBeNull();
  });

  it("rolls back with Prefer: tx=rollback, answering what the call returned", async () => {
    const anon = client(server);
    const rolled = await anon.rpc("q_note", { note: "kept?" }).select("note").rollback();
    expect(rolled.data).toEqual([{ note: "kept?" }, { note: "kept? again" }]);
    expect((await anon.rpc("q_notes")).data).toBe(0);
    await anon.rpc("q_note", { note: "kept" });
    expect((await anon.rpc("q_notes")).data).toBe(2);
  });

  it("enforces max-affected with handling=strict, writing nothing past it", async () => {
    const anon = client(server);
    const before = (await anon.rpc("q_notes")).data as number;
    const strictOne = { "content-type": "application/json", Prefer: "handling=strict, max-affected=1" };
    const over = await rest("q_note", { method: "POST", headers: strictOne, body: '{"note": "many"}' });
    expect(over.status).toBe(400);
    expect(await over.json()).toMatchObject({ code: "PGRST124", details: "The query affects 2 rows" });
    expect((await anon.rpc("q_notes")).data).toBe(before);
    const scalar = await rest("q_total", { method: "POST", headers: strictOne, body: "{}" });
    expect(scalar.status).toBe(400);
    expect(await scalar.json()).toMatchObject({ code: "PGRST128" });
  });

  it("runs a POST to a stable function read-only, as PostgREST does: one that writes answers 405 25006", async () => {
    const res = await client(server).rpc("q_sneaky");
    expect(res.status).toBe(405);
    expect(res.error?.code).toBe("25006");
  });

  it("applies Prefer: timezone when Postgres knows the zone, and says so", async () => {
    const known = await rest("q_zone", { headers: { Prefer: "timezone=America/New_York" } });
    expect(await known.json()).toBe("America/New_York");
    expect(known.headers.get("preference-applied")).toBe("timezone=America/New_York");
    const unknown = await rest("q_zone", { headers: { Prefer: "timezone=Mars/Olympus" } });
    expect(await unknown.json()).not.toBe("Mars/Olympus");
    expect(unknown.headers.get("preference-applied")).toBeNull();
  });

  it("refuses an unknown preference with handling=strict and an unavailable media type", async () => {
    const strict = await rest("q_total", { headers: { Prefer: "handling=strict, colour=blue" } });
    expect(strict.status).toBe(400);
    expect(await strict.json()).toMatchObject({ code: "PGRST122", details: "Invalid preferences: colour=blue" });
    const preferred = await rest("q_list?select=id&limit=1", {
      headers: { Accept: "application/json;q=0.5, text/csv" },
    });
    expect(await preferred.text()).toBe("id\n1");
    const plan = await rest("q_total", { headers: { Accept: "application/vnd.pgrst.plan+json" } });
    expect(plan.status).toBe(406);
    expect(await plan.json()).toMatchObject({ code: "PGRST107" });
  });
});

describe("which function a call reaches", () => {
  it("passes the whole body to a single unnamed json, text or bytea parameter", async () => {
    const anon = client(server);
    expect((await anon.rpc("q_json" as never, { inner: [1, 2] } as never)).data).toEqual([1, 2]);
    const text = await rest("q_text", { method: "POST", headers: { "content-type": "text/plain" }, body: "hi" });
    expect(await text.json()).toBe("text: hi");
    const bytes = await rest("q_bytes", {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body: new Uint8Array([0, 1, 2, 255]),
    });
    expect(await bytes.json()).toBe(4);
  });

  it("answers PGRST203 for overloads it cannot choose between, and PGRST202 in PostgREST's words", async () => {
    const anon = client(server);
    const ambiguous = await anon.rpc("q_over", { a: 1 });
    expect(ambiguous.status).toBe(300);
    expect(ambiguous.error).toEqual({
      code: "PGRST203",
      details: null,
      hint: "Try renaming the parameters or the function itself in the database so function overloading can be resolved",
      message:
        "Could not choose the best candidate function between: public.q_over(a => integer), public.q_over(a => text)",
    });
    const misspelt = await anon.rpc("q_lisst");
    expect(misspelt.error).toEqual({
      code: "PGRST202",
      details:
        "Searched for the function public.q_lisst without parameters or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.",
      hint: "Perhaps you meant to call the function public.q_list",
      message: "Could not find the function public.q_lisst without parameters in the schema cache",
    });
    const wrongArgs = await anon.rpc("q_list", { uptoo: 1 });
    expect(wrongArgs.error?.hint).toBe("Perhaps you meant to call the function public.q_list(upto)");
  });
});

describe("what the embedded backend refuses by name", () => {
  it.each([
    ["embedding a resource", "q_list?select=id,q_log(note)", "Embedding the resource 'q_log'"],
    ["spreading a resource", "q_list?select=id,...q_log(note)", "Spreading an embedded resource"],
    ["ordering by a related resource", "q_list?order=q_log(note)", "Ordering by the embedded resource 'q_log'"],
    ["a filter on an embedded path", "q_list?q_log.note=eq.x", "A filter on the embedded resource 'q_log'"],
    ["a limit on an embedded resource", "q_list?q_log.limit=1", "'q_log.limit' on an embedded resource"],
    ["the columns parameter", "q_list?columns=upto", "The 'columns' parameter"],
  ])("%s → 400 PGRST127", async (_what, path, named) => {
    const res = await rest(path);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; details: string };
    expect(body.code).toBe("PGRST127");
    expect(body.details).toContain(named);
  });

  it("refuses an unknown operator, a bulk call and a CSV body", async () => {
    const op = await rest("q_list?id=near.1", { method: "POST", headers: { "content-type": "application/json" } });
    expect(op.status).toBe(400);
    expect(await op.json()).toMatchObject({ code: "PGRST100" });
    const bulk = await rest("q_total", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "[{}]",
    });
    expect(bulk.status).toBe(400);
    expect(await bulk.json()).toMatchObject({ code: "PGRST102", details: expect.stringContaining("bulk") });
    const csv = await rest("q_total", { method: "POST", headers: { "content-type": "text/csv" }, body: "a\n1" });
    expect(csv.status).toBe(400);
    expect(await csv.json()).toMatchObject({ code: "PGRST127" });
  });

  it("still has every row after the hostile requests above", async () => {
    expect((await client(server).rpc("q_total")).data).toBe(4);
  });
});
