// What a player meets before they act: the entry quote names what blocks play (so the
// page shows a notice, not a form that refuses), the public competition states its bundles with costs from
// SQL, the one-time "You're approved" welcome is the account's own flag, and "Reveal and check this spin"
// reveals only the caller's own spin, rotating the active pair so the spin can be recomputed.
import { createHash, createHmac } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { anon, asUser, attempt, dbPerFile } from "./support";

const db = dbPerFile();

type Block = { code: string; message: string } | null;
type Seed = {
  id: number;
  server_seed_hash: string;
  client_seed: string;
  next_nonce: number;
  server_seed: string | null;
};
type Spin = { id: number; seed_id: number; client_seed: string; nonce: number; attempt: number; value: number };
type Reveal = { spin: Spin; revealed: Seed; seed: Seed; wheel: { wheel_id: number; total_weight: number } };

let admin: string;
beforeAll(async () => {
  admin = await db().createAdmin();
});

const quote = (uid: string, competition: string) =>
  db().call<{ block: Block }>(asUser(uid), "get_entry_quote", { p_competition_id: competition });

describe("the entry quote names what blocks play", () => {
  it("is null for a player who may play, and the break with its end date once they take one", async () => {
    const competition = await db().createCompetition(admin);
    const player = await db().createPlayer({ credits: 10 });
    expect((await quote(player, competition)).block).toBeNull();

    await db().call(asUser(player), "take_break", { p_period: "1 week" });
    const block = (await quote(player, competition)).block;
    expect(block?.code).toBe("on_break");
    const [{ until }] = await db().sql<{ until: string }>(
      `select to_char(break_until at time zone 'Europe/London', 'FMDD FMMonth YYYY "at" HH24:MI') as until
         from public.player_protections where user_id = $1`,
      [player],
    );
    expect(block?.message).toBe(`You are taking a break until ${until}`);
    // The server still refuses, whatever the page shows.
    const entry = await attempt(
      db().call(asUser(player), "enter_competition", { p_competition_id: competition, p_quantity: 1, p_answer: "4" }),
    );
    expect(entry.ok ? null : entry.hint).toBe("on_break");
  });

  it("names self-exclusion and a closed account", async () => {
    const competition = await db().createCompetition(admin);
    const excluded = await db().createPlayer();
    await db().call(asUser(excluded), "self_exclude", { p_months: 6 });
    expect((await quote(excluded, competition)).block?.code).toBe("self_excluded");

    const closed = await db().createPlayer();
    await db().call(asUser(closed), "close_account", {});
    expect((await quote(closed, competition)).block).toEqual({
      code: "account_closed",
      message: "Your account is closed",
    });
  });
});

describe("ticket bundles on the public competition", () => {
  it("prices 1, 5, 10 and 25 tickets in SQL, only those one person may buy", async () => {
    const competition = await db().createCompetition(admin, { ticket_price: 0.35, max_tickets_per_user: 12 });
    const [{ slug }] = await db().sql<{ slug: string }>("select slug from public.competitions where id = $1", [
      competition,
    ]);
    const page = await db().call<{ bundles: { tickets: number; cost: number }[] }>(anon, "get_competition", {
      p_slug: slug,
    });
    expect(page.bundles).toEqual([
      { tickets: 1, cost: 0.35 },
      { tickets: 5, cost: 1.75 },
      { tickets: 10, cost: 3.5 },
    ]);
  });
});

describe("the one-time approval welcome", () => {
  it("is due once an admin approves the account, and dismissed for good by the player", async () => {
    const player = await db().createUser({ name: "New Player" });
    const account = () => db().call<{ welcome_due: boolean }>(asUser(player), "get_my_account");
    expect((await account()).welcome_due).toBe(false);

    await db().call(asUser(admin), "admin_approve_user", { p_user_id: player });
    expect((await account()).welcome_due).toBe(true);

    expect(await db().call(asUser(player), "dismiss_approval_welcome")).toBe(true);
    expect((await account()).welcome_due).toBe(false);
    // A second dismissal changes nothing.
    expect(await db().call(asUser(player), "dismiss_approval_welcome")).toBe(false);
  });

  it("acts on the caller's own account only, and refuses anyone signed out", async () => {
    const player = await db().createUser({ name: "Other Player" });
    await db().call(asUser(admin), "admin_approve_user", { p_user_id: player });
    const someoneElse = await db().createPlayer();
    await db().sql("update public.user_account_data set approval_welcomed_at = null where id = $1", [someoneElse]);

    // There is no argument to name another account: the other player's welcome stays due.
    await db().call(asUser(someoneElse), "dismiss_approval_welcome");
    expect((await db().call<{ welcome_due: boolean }>(asUser(player), "get_my_account")).welcome_due).toBe(true);

    const signedOut = await attempt(db().call(anon, "dismiss_approval_welcome"));
    expect(signedOut.ok).toBe(false);
    const [{ allowed }] = await db().sql<{ allowed: boolean }>(
      "select has_function_privilege('anon', 'public.dismiss_approval_welcome()', 'execute') as allowed",
    );
    expect(allowed).toBe(false);
  });

  it("is not due for players approved before it existed", async () => {
    // The migration marked every approved account as welcomed; the seed's demo players are approved.
    const [{ due }] = await db().sql<{ due: string }>(
      "select count(*) as due from public.user_account_data where approved and approval_welcomed_at is null and approved_at < now() - interval '1 day'",
    );
    expect(Number(due)).toBe(0);
  });
});

describe("reveal and check one spin", () => {
  async function playerWithSpin() {
    const player = await db().createPlayer({ credits: 20 });
    const competition = await db().createCompetition(admin, { ticket_price: 10 });
    await db().call(asUser(player), "enter_competition", {
      p_competition_id: competition,
      p_quantity: 1,
      p_answer: "4",
    });
    await db().call(asUser(player), "set_spinner_client_seed", { p_client_seed: "my-lucky-seed" });
    const spin = await db().call<Spin & { server_seed_hash: string }>(asUser(player), "spin_wheel");
    return { player, spin };
  }

  it("reveals the active pair the spin used and starts the next with the same client seed", async () => {
    const { player, spin } = await playerWithSpin();
    const reveal = await db().call<Reveal>(asUser(player), "reveal_spinner_spin", { p_spin_id: spin.id });

    expect(reveal.spin.id).toBe(spin.id);
    expect(reveal.revealed.id).toBe(spin.seed_id);
    const seed = Buffer.from(reveal.revealed.server_seed ?? "", "hex");
    expect(createHash("sha256").update(seed).digest("hex")).toBe(spin.server_seed_hash);
    // The recorded value is what the revealed seed gives (the browser's check; lib/spinner/derive.ts).
    const h = createHmac("sha256", seed).update(`${spin.client_seed}:${spin.nonce}`).digest();
    // (A first attempt is rejected about once in 10^12 with these weights.)
    expect(spin.attempt).toBe(0);
    expect(h.readUIntBE(0, 6) % reveal.wheel.total_weight).toBe(Number(spin.value));

    expect(reveal.seed.id).not.toBe(spin.seed_id);
    expect(reveal.seed.server_seed).toBeNull();
    expect(reveal.seed.client_seed).toBe("my-lucky-seed");
    expect(reveal.seed.next_nonce).toBe(0);

    // Again: the pair is already revealed, so nothing rotates.
    const again = await db().call<Reveal>(asUser(player), "reveal_spinner_spin", { p_spin_id: spin.id });
    expect(again.seed.id).toBe(reveal.seed.id);
    expect(again.revealed.server_seed).toBe(reveal.revealed.server_seed);
  });

  it("refuses another player's spin as not found and reveals nothing", async () => {
    const { player, spin } = await playerWithSpin();
    const other = await db().createPlayer();
    const refused = await attempt(db().call(asUser(other), "reveal_spinner_spin", { p_spin_id: spin.id }));
    expect(refused.ok ? null : refused.hint).toBe("spin_not_found");
    const [{ revealed }] = await db().sql<{ revealed: string | null }>(
      "select revealed_at as revealed from public.spinner_seeds where id = $1",
      [spin.seed_id],
    );
    expect(revealed).toBeNull();
    expect(
      (await db().call<{ seed: Seed }>(asUser(player), "get_my_spinner")).seed.id,
      "the owner's pair is still active",
    ).toBe(spin.seed_id);

    const signedOut = await attempt(db().call(anon, "reveal_spinner_spin", { p_spin_id: spin.id }));
    expect(signedOut.ok).toBe(false);
  });
});
