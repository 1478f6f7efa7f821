// Notifications: written in the event's transaction (a draw fans out to every entrant once,
// however often the draw is retried; top-ups, approval, complaints, prizes), read and marked by their owner only,
// pushed only to players who opted in (and during a break or exclusion only service kinds), and "Did I win?"
// answering for a ticket number without saying who holds it.
import { beforeAll, describe, expect, it } from "vitest";
import { anon, asUser, attempt, dbPerFile, service } from "./support";

const db = dbPerFile();

type Item = { id: number; kind: string; title: string; body: string; link: string; read_at: string | null };
type Page = { items: Item[]; unread: number };

let admin: string;
beforeAll(async () => {
  admin = await db().createAdmin();
});

const enter = (player: string, competition: string, quantity: number) =>
  db().call(asUser(player), "enter_competition", {
    p_competition_id: competition,
    p_quantity: quantity,
    p_answer: "4",
  });

const notifications = (uid: string) => db().call<Page>(asUser(uid), "get_my_notifications", { p_limit: 100 });

async function passDrawTime(id: string) {
  await db().sql(
    `update public.competitions set opens_at = now() - interval '3 days', closes_at = now() - interval '2 days',
            postal_deadline = now() - interval '1 day', draw_at = now() - interval '1 second' where id = $1`,
    [id],
  );
}

/**
 * A drawn competition with three entrants (one with several tickets); answers them and the draw. `beforeDraw`
 * runs once they have entered (their choices then decide what waits for push).
 */
async function drawnCompetition(beforeDraw?: (players: string[]) => Promise<void>) {
  const competition = await db().createCompetition(admin);
  const players = [
    await db().createPlayer({ credits: 20 }),
    await db().createPlayer({ credits: 20 }),
    await db().createPlayer({ credits: 20 }),
  ];
  await enter(players[0], competition, 5);
  await enter(players[1], competition, 1);
  await enter(players[2], competition, 2);
  await enter(players[0], competition, 1);
  await beforeDraw?.(players);
  await passDrawTime(competition);
  await db().call(asUser(admin), "run_due_draws");
  const [draw] = await db().sql<{ id: string; winner_user_id: string; winning_number: number }>(
    "select id, winner_user_id, winning_number from public.draws where competition_id = $1",
    [competition],
  );
  return { competition, players, draw };
}

const drawRows = (drawId: string) =>
  db().sql<{ user_id: string; kind: string; link: string }>(
    "select user_id, kind, link from public.notifications where ref = $1 order by user_id",
    [`draw:${drawId}`],
  );

describe("a draw's fan-out", () => {
  it("tells each entrant once, the winner that they won, with the draw's verification link", async () => {
    const bystander = await db().createPlayer({ credits: 5 });
    const { players, draw } = await drawnCompetition();
    const rows = await drawRows(draw.id);
    expect(rows.map((r) => r.user_id).sort()).toEqual([...players].sort());
    for (const row of rows) {
      expect(row.kind).toBe(row.user_id === draw.winner_user_id ? "draw_won" : "draw_lost");
      expect(row.link).toBe(`/winners/${draw.id}`);
    }
    const won = (await notifications(draw.winner_user_id)).items.find((n) => n.kind === "draw_won");
    expect(won?.body).toBe(`Your ticket #${draw.winning_number} won. Claim your prize on My prizes.`);
    expect((await notifications(bystander)).items.filter((n) => n.kind.startsWith("draw"))).toEqual([]);
  });

  it("writes nothing more when the draw is run again, by the cron or directly", async () => {
    const { competition, draw } = await drawnCompetition();
    const before = await drawRows(draw.id);
    await db().call(asUser(admin), "run_due_draws");
    await db().call(service, "run_due_draws");
    await db().sql("select private.draw_competition($1)", [competition]);
    expect(await drawRows(draw.id)).toEqual(before);
  });
});

describe("the other events", () => {
  it("a top-up, approval, a complaint's answers and a prize's progress each notify their player", async () => {
    const player = await db().createUser({ name: "Nia Note" });
    await db().call(asUser(admin), "admin_approve_user", { p_user_id: player });
    await db().call(service, "add_credits", { user_id: player, amount: 10, transaction_amount: 10 });
    const complaint = await db().call<{ id: string }>(asUser(player), "submit_complaint", {
      p_subject: "Late prize",
      p_reference: null,
      p_details: "My prize has not arrived after three weeks.",
    });
    const [{ id: complaintId }] = await db().sql<{ id: string }>(
      "select id from public.complaints where user_id = $1",
      [player],
    );
    expect(complaint).toBeTruthy();
    await db().call(asUser(admin), "admin_update_complaint", { p_id: complaintId, p_status: "acknowledged" });
    await db().call(asUser(admin), "admin_update_complaint", {
      p_id: complaintId,
      p_status: "resolved",
      p_response: "It was delivered today.",
    });
    const kinds = (await notifications(player)).items.map((n) => `${n.kind}: ${n.title}`);
    expect(kinds).toEqual([
      expect.stringMatching(/^complaint: Complaint LC-\d{6} answered$/),
      expect.stringMatching(/^complaint: Complaint LC-\d{6} acknowledged$/),
      "credit: Top-up credited",
      "approval: You're approved",
    ]);

    const { draw } = await drawnCompetition();
    await db().call(asUser(draw.winner_user_id), "claim_prize", {
      p_draw_id: draw.id,
      p_choice: "prize",
      p_delivery_address: "1 High Street, Leeds LS1 1AA",
    });
    await db().call(asUser(admin), "admin_update_prize_fulfilment", {
      p_draw_id: draw.id,
      p_status: "verified",
      p_document_type: "passport",
      p_document_last_four: "1234",
    });
    const prize = (await notifications(draw.winner_user_id)).items[0];
    expect(prize).toMatchObject({
      kind: "prize",
      link: "/account/prizes",
      body: "Your claim is verified; your prize is on its way.",
    });
    // Their own claim is not news to them.
    expect((await notifications(draw.winner_user_id)).items.filter((n) => n.kind === "prize")).toHaveLength(1);
  });
});

describe("reading and marking", () => {
  it("shows a player only their own, and refuses marks on another's", async () => {
    const { players } = await drawnCompetition();
    const [mine, theirs] = [await notifications(players[0]), await notifications(players[1])];
    expect(mine.unread).toBe(mine.items.length);
    const visible = await db().as<{ user_id: string }>(asUser(players[0]), "select user_id from public.notifications");
    expect(new Set(visible.rows?.map((r) => r.user_id))).toEqual(new Set([players[0]]));

    const refused = await attempt(
      db().call(asUser(players[0]), "mark_notification_read", { p_id: theirs.items[0].id }),
    );
    expect(refused.ok ? null : refused.hint).toBe("notification_not_found");
    expect((await notifications(players[1])).items[0].read_at).toBeNull();

    await db().call(asUser(players[0]), "mark_notification_read", { p_id: mine.items[0].id });
    expect(await db().call(asUser(players[0]), "get_my_unread_count")).toBe(mine.unread - 1);
    expect(await db().call(asUser(players[0]), "mark_all_notifications_read")).toBe(mine.unread - 1);
    expect(await db().call(asUser(players[0]), "get_my_unread_count")).toBe(0);
  });

  it("pages newest first and refuses anonymous callers", async () => {
    const { players } = await drawnCompetition();
    const all = (await notifications(players[0])).items;
    const first = await db().call<Page>(asUser(players[0]), "get_my_notifications", { p_limit: 1 });
    const next = await db().call<Page>(asUser(players[0]), "get_my_notifications", {
      p_limit: 1,
      p_before: first.items[0].id,
    });
    expect([...first.items, ...next.items].map((n) => n.id)).toEqual(all.slice(0, 2).map((n) => n.id));
    expect((await db().rpc(anon, "get_my_notifications", {})).error?.code).toBe("42501");
    expect((await db().rpc(anon, "mark_all_notifications_read", {})).error?.code).toBe("42501");
  });
});

describe("web push", () => {
  const key = "B" + "A".repeat(86);
  const subscribe = (uid: string, endpoint: string) =>
    db().call(asUser(uid), "save_push_subscription", { p_endpoint: endpoint, p_p256dh: key, p_auth: "A".repeat(22) });

  it("claims each notification once, for opted-in kinds, and only service kinds during a break", async () => {
    // Whatever earlier tests left waiting is not this test's.
    await db().sql("update public.notifications set push_pending = false");
    const { players, draw } = await drawnCompetition(async (players) => {
      for (const p of players) {
        await subscribe(p, `https://fcm.googleapis.com/fcm/send/${p}`);
        await db().call(asUser(p), "set_my_push_kinds", { p_kinds: ["draw_won", "draw_lost"] });
      }
    });
    const losers = players.filter((p) => p !== draw.winner_user_id);
    // After the draw: a break holds back "you did not win"; a kind dropped is not sent.
    await db().call(asUser(losers[1]), "take_break", { p_period: "1 week" });
    await db().call(asUser(losers[0]), "set_my_push_kinds", { p_kinds: ["draw_won"] });

    const batch = await db().call<{ endpoint: string; link: string }[]>(service, "claim_push_batch", { p_limit: 100 });
    expect(batch.map((b) => b.endpoint)).toEqual([`https://fcm.googleapis.com/fcm/send/${draw.winner_user_id}`]);
    expect(await db().call(service, "claim_push_batch", { p_limit: 100 })).toEqual([]);
  });

  it("waits only when the player wanted the kind pushed at the time: opting in later sends nothing older", async () => {
    const player = await db().createPlayer();
    const endpoint = `https://fcm.googleapis.com/fcm/send/late-${player}`;
    const topUp = () => db().call(service, "add_credits", { user_id: player, amount: 5, transaction_amount: 5 });
    const claimedFor = async () =>
      (await db().call<{ endpoint: string; body: string }[]>(service, "claim_push_batch", { p_limit: 100 })).filter(
        (b) => b.endpoint === endpoint,
      );

    await subscribe(player, endpoint);
    await topUp(); // the browser is on, the kind not chosen
    await db().call(asUser(player), "set_my_push_kinds", { p_kinds: ["credit"] });
    expect(await claimedFor()).toEqual([]);

    await topUp();
    expect((await claimedFor()).map((b) => b.body)).toEqual([expect.stringMatching(/^£5\.00 added/)]);

    // Chosen, but the browser was off: turning it on later sends nothing older either.
    await db().call(asUser(player), "delete_push_subscription", { p_endpoint: endpoint });
    await topUp();
    await subscribe(player, endpoint);
    expect(await claimedFor()).toEqual([]);
  });

  it("drops what waited over a day (push was off, the cron was down) without sending it", async () => {
    const player = await db().createPlayer();
    const endpoint = `https://fcm.googleapis.com/fcm/send/stale-${player}`;
    await subscribe(player, endpoint);
    await db().call(asUser(player), "set_my_push_kinds", { p_kinds: ["credit"] });
    await db().call(service, "add_credits", { user_id: player, amount: 5, transaction_amount: 5 });
    await db().sql(
      "update public.notifications set created_at = now() - interval '25 hours' where user_id = $1 and kind = 'credit'",
      [player],
    );
    const batch = await db().call<{ endpoint: string }[]>(service, "claim_push_batch", { p_limit: 100 });
    expect(batch.filter((b) => b.endpoint === endpoint)).toEqual([]);
    const [{ waiting }] = await db().sql<{ waiting: number }>(
      "select count(*)::int as waiting from public.notifications where user_id = $1 and push_pending",
      [player],
    );
    expect(waiting).toBe(0);
  });

  it("refuses bad subscriptions and unknown kinds, and the server alone removes a dead endpoint", async () => {
    const player = await db().createPlayer();
    for (const endpoint of ["http://push.example/x", "not a url"]) {
      const bad = await attempt(subscribe(player, endpoint));
      expect(bad.ok ? null : bad.hint).toBe("invalid_input");
    }
    const kinds = await attempt(db().call(asUser(player), "set_my_push_kinds", { p_kinds: ["marketing"] }));
    expect(kinds.ok ? null : kinds.hint).toBe("invalid_input");

    await subscribe(player, "https://fcm.googleapis.com/fcm/send/dead");
    const other = await db().createPlayer();
    expect(
      await db().call(asUser(other), "delete_push_subscription", {
        p_endpoint: "https://fcm.googleapis.com/fcm/send/dead",
      }),
    ).toBe(false);
    expect((await db().rpc(asUser(player), "remove_push_subscription", { p_endpoint: "x" })).error?.code).toBe("42501");
    await db().call(service, "remove_push_subscription", { p_endpoint: "https://fcm.googleapis.com/fcm/send/dead" });
    expect(await db().call(asUser(player), "get_my_push_settings")).toEqual({ kinds: [], endpoints: [] });
  });
});

describe("push subscriptions", () => {
  const keys = { p_p256dh: "B" + "A".repeat(86), p_auth: "A".repeat(22) };
  const save = (uid: string, endpoint: string) =>
    attempt(db().call(asUser(uid), "save_push_subscription", { p_endpoint: endpoint, ...keys }));
  const endpointsOf = async (uid: string) =>
    (await db().call<{ endpoints: string[] }>(asUser(uid), "get_my_push_settings")).endpoints;

  it("are on a browser push service only, checked on save and by the table whoever writes", async () => {
    const player = await db().createPlayer();
    for (const endpoint of [
      "https://127.0.0.1:9443/push",
      "https://localhost/push",
      "https://[::1]/push",
      "https://10.0.0.7/push",
      "https://169.254.169.254/latest/meta-data",
      "https://internal.example/push",
      "http://fcm.googleapis.com/fcm/send/x",
      "https://fcm.googleapis.com:9443/fcm/send/x",
      "https://fcm.googleapis.com@127.0.0.1/fcm/send/x",
      "https://fcm.googleapis.com.evil.example/fcm/send/x",
      "https://FCM.googleapis.com/fcm/send/x",
      "https://fcm.googleapis.com",
      "https://fcm.googleapis.com/fcm/send/a b",
      "https://fcm.googleapis.com/fcm\\@127.0.0.1/x",
      "https://evil.example/.push.apple.com/x",
      `https://fcm.googleapis.com/${"x".repeat(2000)}`,
    ]) {
      const refused = await save(player, endpoint);
      expect(refused.ok ? endpoint : refused, endpoint).toMatchObject({
        hint: "invalid_input",
        message: "Push works only through your browser's own push service",
      });
    }
    for (const endpoint of [
      "https://fcm.googleapis.com/fcm/send/abc:APA91b-x_y",
      "https://fcm.googleapis.com/wp/abc",
      "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABm",
      "https://web.push.apple.com/QGx1-Qe_n",
      "https://wns2-by3p.notify.windows.com/w/?token=BQYAAAD%2b0a%3d",
    ])
      expect((await save(player, endpoint)).ok, endpoint).toBe(true);
    // The service role writes tables directly, and the table refuses as well.
    const direct = await attempt(
      db().sql(
        "insert into public.push_subscriptions (user_id, endpoint, p256dh, auth) values ($1, 'https://127.0.0.1:9443/x', 'k', 'a')",
        [player],
      ),
    );
    expect(direct.ok ? null : direct.code).toBe("23514");
  });

  it("are at most 10 per player: the 11th replaces the one saved longest ago, and re-saving one keeps it", async () => {
    const player = await db().createPlayer();
    const other = await db().createPlayer();
    const endpoint = (n: number) => `https://fcm.googleapis.com/fcm/send/cap-${player}-${n}`;
    for (let n = 1; n <= 10; n++) expect((await save(player, endpoint(n))).ok).toBe(true);
    // Saved again, the first is now the newest; the second is the oldest.
    expect((await save(player, endpoint(1))).ok).toBe(true);
    expect((await save(player, endpoint(11))).ok).toBe(true);
    expect((await endpointsOf(player)).sort()).toEqual(
      [1, ...Array.from({ length: 9 }, (_, i) => i + 3)].map(endpoint).sort(),
    );
    // Another player's browsers are their own allowance.
    expect((await save(other, `https://fcm.googleapis.com/fcm/send/cap-other-${other}`)).ok).toBe(true);
    expect(await endpointsOf(player)).toHaveLength(10);
    expect(await endpointsOf(other)).toHaveLength(1);
    // A browser signed in as the other player takes its row over: one fewer here, still at most 10 there.
    expect((await save(other, endpoint(11))).ok).toBe(true);
    expect(await endpointsOf(player)).toHaveLength(9);
    expect(await endpointsOf(other)).toHaveLength(2);
  });
});

describe("Did I win?", () => {
  it("answers won, not won, not drawn yet and no such ticket, to anyone", async () => {
    const { competition, draw } = await drawnCompetition();
    const [{ slug }] = await db().sql<{ slug: string }>("select slug from public.competitions where id = $1", [
      competition,
    ]);
    const check = (p_slug: string, p_number: number) =>
      db().call<{ result: string }>(anon, "check_ticket", { p_slug, p_number });
    expect(await check(slug, draw.winning_number)).toMatchObject({ result: "won", draw_id: draw.id });
    expect((await check(slug, draw.winning_number === 1 ? 2 : 1)).result).toBe("not_won");
    expect((await check(slug, 99)).result).toBe("no_such_ticket");
    expect(JSON.stringify(await check(slug, 1))).not.toMatch(/user|name|email/);

    const open = await db().createCompetition(admin);
    await enter(await db().createPlayer({ credits: 5 }), open, 1);
    const [{ slug: openSlug }] = await db().sql<{ slug: string }>(
      "select slug from public.competitions where id = $1",
      [open],
    );
    expect((await check(openSlug, 1)).result).toBe("not_drawn");
    const missing = await attempt(check("no-such-competition", 1));
    expect(missing.ok ? null : missing.hint).toBe("competition_not_found");
  });
});
