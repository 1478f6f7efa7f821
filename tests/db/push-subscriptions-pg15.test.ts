// Push subscriptions on PostgreSQL 15 (what hosted Supabase runs), saved in parallel transactions: the endpoint
// rule holds there too, and browsers subscribing at once still leave a player with 10.
import { describe, expect, it } from "vitest";
import { approvedAccount, pg15ClusterForFile } from "./pg15";

const cluster = pg15ClusterForFile(20);
const KEYS = ["B" + "A".repeat(86), "A".repeat(22)];

/** A transaction as the player, on a connection of its own, left open until `commit` is called. */
async function openSave(uid: string, endpoint: string) {
  const client = await cluster.pool.connect();
  await client.query("begin");
  await client.query("select set_config('request.jwt.claims', $1, true), set_config('role', 'authenticated', true)", [
    JSON.stringify({ sub: uid, role: "authenticated", aal: "aal1" }),
  ]);
  const saved = client.query("select public.save_push_subscription($1, $2, $3)", [endpoint, ...KEYS]).then(
    () => null,
    (e: Error) => e.message,
  );
  return {
    saved,
    async commit() {
      const error = await saved;
      await client.query(error ? "rollback" : "commit");
      client.release();
      return error;
    },
  };
}

const save = async (uid: string, endpoint: string) => (await openSave(uid, endpoint)).commit();

const player = (email: string) => approvedAccount(cluster.pool, email);

describe("push subscriptions on PostgreSQL 15", () => {
  it("refuses an endpoint inside, and keeps 10 per player when 20 browsers subscribe at once", async () => {
    const uid = await player("push@pg15.test");
    expect(await save(uid, "https://127.0.0.1:9443/push")).toBe(
      "Push works only through your browser's own push service",
    );
    await expect(
      cluster.pool.query(
        "insert into public.push_subscriptions (user_id, endpoint, p256dh, auth) values ($1, 'https://10.0.0.7/x', 'k', 'a')",
        [uid],
      ),
    ).rejects.toMatchObject({ code: "23514" });

    const endpoints = Array.from({ length: 20 }, (_, n) => `https://fcm.googleapis.com/fcm/send/race-${n}`);
    expect(await Promise.all(endpoints.map((e) => save(uid, e)))).toEqual(endpoints.map(() => null));
    const count = async () =>
      (
        await cluster.pool.query<{ n: number }>(
          "select count(*)::int as n from public.push_subscriptions where user_id = $1",
          [uid],
        )
      ).rows[0].n;
    expect(await count()).toBe(10);

    // Two saves at once for a player at the limit: the second waits for the first, then finds it and makes room
    // again. Without waiting both would find ten, each drop the same oldest row, and leave eleven.
    const first = await openSave(uid, "https://fcm.googleapis.com/fcm/send/first");
    await first.saved;
    const second = await openSave(uid, "https://fcm.googleapis.com/fcm/send/second");
    const waited = await Promise.race([
      second.saved.then(() => false),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 500)),
    ]);
    expect(waited).toBe(true);
    expect(await first.commit()).toBeNull();
    expect(await second.commit()).toBeNull();
    expect(await count()).toBe(10);
  });
});
