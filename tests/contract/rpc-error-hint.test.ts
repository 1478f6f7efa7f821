// A refusal's stable code reaches the app: SQL puts it in the exception's HINT, the
// embedded backend returns PostgREST's error body, and supabase-js exposes it as
// error.hint, which the app's typed RPC helper switches on.
import { describe, expect, it } from "vitest";
import { signIn } from "./helpers";
import { contractServer } from "./support/server";

const contract = contractServer();

describe("refusal codes through supabase-js", () => {
  it("a player calling an admin RPC gets admin_required beside the message", async () => {
    const client = await contract.player();
    const { data, error, status } = await client.rpc("admin_list_competitions");
    expect(data).toBeNull();
    expect(status).toBe(403);
    expect(error).toMatchObject({
      code: "42501",
      message: "Access denied: Admin privileges required",
      hint: "admin_required",
    });
  });

  it("an account awaiting approval gets approval_pending when it tries to enter", async () => {
    const { client } = await signIn(contract.server, "pending@labcash.test");
    const { data: list } = await client.rpc("list_competitions", { p_status: "live" });
    const live = (list as Array<{ id: string }>)[0];
    const { error } = await client.rpc("enter_competition", {
      p_competition_id: live.id,
      p_quantity: 1,
      p_answer: "x",
    });
    expect(error).toMatchObject({
      code: "P0001",
      message: "Your account is awaiting approval",
      hint: "approval_pending",
    });
  });
});
