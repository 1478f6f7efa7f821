// The app's typed RPC helper against the real embedded backend through real
// supabase-js: results parsed, refusals thrown as DbError with the SQL's code.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DbError } from "@/lib/data/errors";
import { callRpcWith } from "@/lib/data/rpc";
import { deliverQueuedMail } from "@/lib/mail/adapter";
import { adminClient, client, signIn } from "./helpers";
import { contractServer } from "./support/server";

const contract = contractServer();

const listed = z.array(z.object({ id: z.string().uuid(), slug: z.string(), status: z.string() }));

describe("callRpcWith", () => {
  it("returns the parsed result", async () => {
    const live = await callRpcWith(client(contract.server), "list_competitions", { p_status: "live" }, listed);
    expect(live.length).toBeGreaterThan(0);
    expect(live.every((c) => c.status === "live")).toBe(true);
  });

  it("throws a refusal as DbError with the code from the SQL hint, the SQLSTATE and the function", async () => {
    const call = callRpcWith(
      client(contract.server),
      "get_competition",
      { p_slug: "no-such-competition" },
      z.unknown(),
    );
    await expect(call).rejects.toBeInstanceOf(DbError);
    await expect(call).rejects.toMatchObject({
      code: "competition_not_found",
      message: "Competition not found",
      sqlState: "PT404",
      rpc: "get_competition",
    });
  });

  it("calls a refusal the SQL did not label (here: no grant for anon) 'unexpected'", async () => {
    const [first] = await callRpcWith(client(contract.server), "list_competitions", { p_status: "live" }, listed);
    const call = callRpcWith(
      client(contract.server),
      "enter_competition",
      { p_competition_id: first.id, p_quantity: 1 },
      z.unknown(),
    );
    await expect(call).rejects.toMatchObject({ code: "unexpected", sqlState: "42501" });
  });

  it("passes a signed-in user's refusal through with its code", async () => {
    const { client: pending } = await signIn(contract.server, "pending@labcash.test");
    const [first] = await callRpcWith(pending, "list_competitions", { p_status: "live" }, listed);
    const call = callRpcWith(
      pending,
      "enter_competition",
      { p_competition_id: first.id, p_quantity: 1, p_answer: "x" },
      z.unknown(),
    );
    await expect(call).rejects.toMatchObject({
      code: "approval_pending",
      message: "Your account is awaiting approval",
    });
  });

  it("fails loudly when the result does not have the expected shape", async () => {
    await expect(
      callRpcWith(client(contract.server), "list_competitions", {}, z.array(z.object({ no_such_field: z.string() }))),
    ).rejects.toThrow(z.ZodError);
  });
});

describe("the mail adapter with the secret-key client", () => {
  it("claims the queue through the helper and delivers to the outbox", async () => {
    const report = await deliverQueuedMail(adminClient(contract.server), {
      transport: { name: "outbox", send: async () => {} },
    });
    expect(report.failed).toBe(0);
    expect(report.sent).toBe(report.claimed);
    expect(
      await deliverQueuedMail(adminClient(contract.server), { transport: { name: "outbox", send: async () => {} } }),
    ).toMatchObject({ claimed: 0 });
  });
});
