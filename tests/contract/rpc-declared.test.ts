// A function that returns a declared composite type (DECISIONS.md "Shapes from the database"), read with
// `declared` through real supabase-js and the embedded backend: a set arrives as an array and one row as an
// object, as PostgREST answers them, with the JSON the jsonb versions gave; a filled field that is null fails.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRpcWith, declared } from "@/lib/data/rpc";
import { client, signIn, startTestServer, type TestServer } from "./helpers";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.stop());

const ISO_WITH_OFFSET = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00$/;

describe("declared result shapes", () => {
  it("read a set of composites as an array of objects, numbers and instants as the jsonb gave them", async () => {
    const winners = await callRpcWith(
      client(server),
      "list_winners",
      {},
      declared("draw_id", "drawn_at", "prize_value"),
    );
    expect(winners.length).toBeGreaterThan(0);
    for (const w of winners) {
      expect(w.drawn_at).toMatch(ISO_WITH_OFFSET);
      expect(typeof w.prize_value).toBe("number");
      expect(typeof w.winning_number).toBe("number");
    }
  });

  it("read one composite as an object, with its enum as a string", async () => {
    const { client: player } = await signIn(server, "player@labcash.test");
    const protections = await callRpcWith(player, "get_my_protections", {}, declared("state", "month_spent"));
    expect(Array.isArray(protections)).toBe(false);
    expect(protections.state).toBe("active");
    expect(typeof protections.month_spent).toBe("number");
  });

  it("fail when a field named as always filled is null", async () => {
    const { client: player } = await signIn(server, "player@labcash.test");
    await expect(callRpcWith(player, "get_my_protections", {}, declared("break_until"))).rejects.toThrow(
      "get_my_protections answered without break_until",
    );
  });
});
