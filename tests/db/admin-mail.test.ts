// Admin mail: segments resolve to the right players (marketing only with consent and
// never during a break, self-exclusion or after closure; never an unapproved, deleted or unknown-age
// account, whatever the kind), the preview counts what a send queues, a send writes one outbox row per
// recipient, the campaign and the audit row in one go, the outbox pages and filters, and only admins
// may do any of it.
import { beforeAll, describe, expect, it } from "vitest";
import { deliverQueuedMail, type RpcClient } from "@/lib/mail/adapter";
import { ADMIN_REQUIRED, NOT_AUTHENTICATED, anon, asUser, attempt, dbPerFile, service, type Caller } from "./support";

const db = dbPerFile();

type Preview = {
  members: number;
  recipients: number;
  held_back: { no_consent: number; protected: number };
  competition: { id: string; title: string } | null;
  subject: string;
  sample: { name: string; email: string } | null;
  rendered: string;
};
type Campaign = {
  id: string;
  kind: string;
  segment: string;
  competition: { id: string; title: string } | null;
  subject: string;
  body_text: string;
  recipients: number;
  queued: number;
  sent: number;
  failed: number;
  sent_by: { id: string; name: string } | null;
  already_sent: boolean;
};
type OutboxRow = {
  id: number;
  to_email: string;
  to_user: string | null;
  to_name: string | null;
  kind: string;
  subject: string;
  status: string;
  transport: string | null;
  campaign_id: string | null;
};
type OutboxPage = { rows: OutboxRow[]; next_before: number | null; campaign: Campaign | null };

const BODY = "Our new competitions open on Friday. Good luck to everyone who enters!";

let admin: string;
let competition: string;
const people: Record<string, string> = {};

/** A signed-up adult (the app always sends a date of birth) who ticked the marketing box, optionally approved. */
const adult = (name: string, approved = true) =>
  db().createUser({ name, approved, meta: { name, date_of_birth: "1990-05-17", marketing_consent: true } });

const enter = (user: string, competitionId = competition) =>
  db().call(asUser(user), "enter_competition", { p_competition_id: competitionId, p_quantity: 1, p_answer: "4" });

function compose(over: Record<string, unknown> = {}) {
  return {
    p_kind: "marketing",
    p_segment: "competition_entrants",
    p_competition_id: competition,
    p_subject: "New competitions this week",
    p_body: BODY,
    ...over,
  };
}

const preview = (over: Record<string, unknown> = {}, caller: Caller = asUser(admin)) =>
  db().call<Preview>(caller, "admin_preview_mail", compose(over));
const send = (over: Record<string, unknown> = {}, caller: Caller = asUser(admin)) =>
  db().call<Campaign>(caller, "admin_send_mail", { ...compose(over), p_request_id: null });

async function outboxUsers(campaign: string): Promise<string[]> {
  const rows = await db().sql<{ to_user: string }>(
    "select to_user from public.mail_outbox where campaign_id = $1 order by to_user",
    [campaign],
  );
  return rows.map((r) => r.to_user);
}
const sorted = (ids: string[]) => [...ids].sort();

beforeAll(async () => {
  admin = await db().createAdmin();
  competition = await db().createCompetition(admin);
  people.keen = await adult("Kay Keen");
  people.quiet = await adult("Quinn Quiet");
  people.resting = await adult("Rae Resting");
  people.excluded = await adult("Eli Excluded");
  people.closed = await adult("Cal Closed");
  people.pending = await adult("Pat Pending", false);
  people.noAge = await db().createUser({ name: "Nia Noage", approved: true });
  // An account from before every sign-up had to give a date of birth.
  await db().sql("update public.profiles set date_of_birth = null where id = $1", [people.noAge]);
  people.young = await adult("Yan Young");
  people.deleted = await adult("Del Deleted");
  for (const name of ["keen", "quiet", "resting", "excluded", "closed", "noAge", "young", "deleted"]) {
    await db().call(service, "add_credits", { user_id: people[name], amount: 5 });
    await enter(people[name]);
  }
  // An account awaiting approval with a postal entry linked to it is an entrant too.
  await db().call(asUser(admin), "admin_record_postal_entry", {
    p_competition_id: competition,
    p_user_id: people.pending,
    p_name: "Pat Pending",
    p_address: "1 High Street, Harrogate HG1 2AB",
    p_answer: "4",
  });
  await db().call(asUser(people.quiet), "set_my_marketing_consent", { p_given: false });
  await db().call(asUser(people.resting), "take_break", { p_period: "1 week" });
  await db().call(asUser(people.excluded), "self_exclude", { p_months: 6 });
  await db().call(asUser(people.closed), "close_account");
  await db().sql("update public.profiles set date_of_birth = current_date - interval '17 years' where id = $1", [
    people.young,
  ]);
  await db().sql("update public.user_account_data set deleted_at = now() where id = $1", [people.deleted]);
});

describe("segments", () => {
  it("marketing to a competition's entrants reaches only consenting players not on a break, excluded or closed", async () => {
    const p = await preview();
    // Members: keen, quiet, resting, excluded, closed (not pending, no age, under 18, deleted).
    expect(p).toMatchObject({
      members: 5,
      recipients: 1,
      held_back: { no_consent: 1, protected: 3 },
      sample: { name: "Kay Keen" },
    });
    expect(p.competition?.id).toBe(competition);
    const campaign = await send();
    expect(campaign).toMatchObject({ kind: "marketing", segment: "competition_entrants", recipients: 1, queued: 1 });
    expect(await outboxUsers(campaign.id)).toEqual([people.keen]);
  });

  it("a service notice reaches every entrant with a verified age, breaks included, never the unapproved", async () => {
    const p = await preview({ p_kind: "service" });
    expect(p).toMatchObject({ members: 5, recipients: 5, held_back: { no_consent: 0, protected: 0 } });
    const campaign = await send({ p_kind: "service" });
    expect(campaign.recipients).toBe(5);
    expect(await outboxUsers(campaign.id)).toEqual(
      sorted([people.keen, people.quiet, people.resting, people.excluded, people.closed]),
    );
  });

  it("all approved players: players only, the same rules, and the preview counts what the send queues", async () => {
    const marketing = await preview({ p_segment: "all_players", p_competition_id: null });
    const sent = await send({ p_segment: "all_players", p_competition_id: null });
    expect(sent.recipients).toBe(marketing.recipients);
    const users = await outboxUsers(sent.id);
    expect(users).toContain(people.keen);
    for (const name of ["quiet", "resting", "excluded", "closed", "pending", "noAge", "young", "deleted"]) {
      expect(users, name).not.toContain(people[name]);
    }
    expect(users).not.toContain(admin);
    const service = await send({ p_kind: "service", p_segment: "all_players", p_competition_id: null });
    const all = await outboxUsers(service.id);
    for (const name of ["keen", "quiet", "resting", "excluded", "closed"]) expect(all, name).toContain(people[name]);
    for (const name of ["pending", "noAge", "young", "deleted"]) expect(all, name).not.toContain(people[name]);
  });

  it("players with no entry in 30 days: an entry 40 days ago counts as none; a competition chosen is ignored", async () => {
    const lapsed = await adult("Lee Lapsed");
    await db().call(service, "add_credits", { user_id: lapsed, amount: 2 });
    await enter(lapsed, await db().createCompetition(admin));
    const before = await preview({ p_segment: "no_recent_entry" });
    expect(before.competition).toBeNull();
    await db().sql("update public.entries set created_at = now() - interval '40 days' where user_id = $1", [lapsed]);
    const never = await adult("Nev Never");
    const after = await preview({ p_segment: "no_recent_entry" });
    expect(after.recipients).toBe(before.recipients + 2);
    const campaign = await send({ p_segment: "no_recent_entry" });
    const users = await outboxUsers(campaign.id);
    expect(users).toEqual(expect.arrayContaining([lapsed, never]));
    expect(users).not.toContain(people.keen);
    const [row] = await db().sql<{ competition_id: string | null }>(
      "select competition_id from public.mail_campaigns where id = $1",
      [campaign.id],
    );
    expect(row.competition_id).toBeNull();
  });
});

describe("sending", () => {
  it("queues the rendered message, records the campaign and the audit row, once per request", async () => {
    const request = crypto.randomUUID();
    const p = await preview({ p_kind: "service", p_subject: "  Your entry  " });
    expect(p.subject).toBe("Your entry");
    expect(p.rendered).toMatch(/^Hello Cal,\n\nOur new competitions open on Friday/);
    expect(p.rendered).toContain("This is a service message");
    const campaign = await db().call<Campaign>(asUser(admin), "admin_send_mail", {
      ...compose({ p_kind: "service", p_subject: "  Your entry  " }),
      p_request_id: request,
    });
    expect(campaign).toMatchObject({
      subject: "Your entry",
      body_text: BODY,
      recipients: 5,
      queued: 5,
      sent: 0,
      failed: 0,
      already_sent: false,
      sent_by: { id: admin, name: "Ada Admin" },
      competition: { id: competition },
    });
    const [mail] = await db().sql<{ to_email: string; kind: string; subject: string; body_text: string }>(
      "select * from public.mail_outbox where campaign_id = $1 and to_user = $2",
      [campaign.id, people.resting],
    );
    expect(mail).toMatchObject({ kind: "service", subject: "Your entry" });
    expect(mail.to_email).toMatch(/@labcash\.test$/);
    expect(mail.body_text).toMatch(/^Hello Rae,\n\n/);
    const [log] = await db().sql<{ actor_id: string; details: Record<string, unknown> }>(
      "select * from public.activity_log where action = 'mail.sent' and subject_id = $1",
      [campaign.id],
    );
    expect(log).toMatchObject({
      actor_id: admin,
      details: { kind: "service", segment: "competition_entrants", recipients: 5, subject: "Your entry" },
    });

    const again = await db().call<Campaign>(asUser(admin), "admin_send_mail", {
      ...compose({ p_kind: "service" }),
      p_request_id: request,
    });
    expect(again).toMatchObject({ id: campaign.id, already_sent: true });
    expect(await outboxUsers(campaign.id)).toHaveLength(5);
  });

  it("marketing carries the opt-out footer", async () => {
    const p = await preview();
    expect(p.rendered).toMatch(/^Hello Kay,/);
    expect(p.rendered).toContain(
      "Unsubscribe in one click, no sign-in needed: http://localhost:3000/unsubscribe?token=(their own link)",
    );
    expect(p.rendered).toContain("Or change your choice on your profile: http://localhost:3000/account/profile");
  });

  it("refuses bad input with a code and writes nothing", async () => {
    const count = async () =>
      (
        await db().sql<{ campaigns: number; mail: number; log: number }>(
          `select (select count(*)::int from public.mail_campaigns) as campaigns,
                  (select count(*)::int from public.mail_outbox) as mail,
                  (select count(*)::int from public.activity_log where action = 'mail.sent') as log`,
        )
      )[0];
    const before = await count();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ p_kind: "spam" }, "invalid_input", "Choose marketing or a service notice"],
      [{ p_segment: "everyone" }, "invalid_input", "Choose who the mail goes to"],
      [{ p_competition_id: null }, "invalid_input", "Choose the competition whose entrants get the mail"],
      [{ p_competition_id: crypto.randomUUID() }, "competition_not_found", "Competition not found"],
      [{ p_subject: "Hi" }, "invalid_input", "The subject must be 3 to 120 characters"],
      [{ p_subject: "x".repeat(121) }, "invalid_input", "The subject must be 3 to 120 characters"],
      [{ p_subject: "Two\nlines" }, "invalid_input", "The subject must be one line"],
      [{ p_body: "Too short" }, "invalid_input", "The message must be 20 to 5,000 characters"],
      [{ p_body: "x".repeat(5001) }, "invalid_input", "The message must be 20 to 5,000 characters"],
    ];
    for (const [over, hint, message] of cases) {
      for (const fn of ["admin_preview_mail", "admin_send_mail"]) {
        const res = await attempt(db().call(asUser(admin), fn, compose(over)));
        expect(res.ok ? "sent" : { hint: res.hint, message: res.message }, `${fn} ${JSON.stringify(over)}`).toEqual({
          hint,
          message,
        });
      }
    }
    // A draft has no entrants: nobody to send to, and the campaign row goes with the refusal.
    const draft = await db().createCompetition(admin, {}, false);
    expect((await preview({ p_competition_id: draft })).recipients).toBe(0);
    const empty = await attempt(send({ p_competition_id: draft }));
    expect(empty.ok ? "sent" : empty.hint).toBe("no_recipients");
    expect(await count()).toEqual(before);
  });
});

describe("campaigns and the outbox", () => {
  it("lists campaigns with counts by status, and the outbox by campaign and status, in keyset pages", async () => {
    const campaign = await send({ p_kind: "service" });
    const page = (args: Record<string, unknown>) =>
      db().call<OutboxPage>(asUser(admin), "admin_list_mail_outbox", {
        p_campaign_id: null,
        p_status: null,
        p_before: null,
        p_limit: 50,
        ...args,
      });
    const first = await page({ p_campaign_id: campaign.id, p_limit: 3 });
    expect(first.rows).toHaveLength(3);
    expect(first.campaign).toMatchObject({ id: campaign.id, recipients: 5 });
    expect(first.rows.every((r) => r.campaign_id === campaign.id && r.status === "queued")).toBe(true);
    expect(first.next_before).toBe(first.rows[2].id);
    const second = await page({ p_campaign_id: campaign.id, p_limit: 3, p_before: first.next_before });
    expect(second.rows).toHaveLength(2);
    expect(second.next_before).toBeNull();
    const ids = [...first.rows, ...second.rows].map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(sorted([...first.rows, ...second.rows].map((r) => r.to_user!))).toEqual(
      sorted([people.keen, people.quiet, people.resting, people.excluded, people.closed]),
    );
    expect([...first.rows, ...second.rows].find((r) => r.to_user === people.keen)?.to_name).toBe("Kay Keen");

    // Delivered through the adapter (no SMTP: the outbox is the inbox).
    const client: RpcClient = { rpc: (fn, args) => db().rpc(service, fn, args) };
    await deliverQueuedMail(client, { transport: { name: "outbox", send: async () => {} }, limit: 100, batches: 50 });
    const sent = await page({ p_campaign_id: campaign.id, p_status: "sent" });
    expect(sent.rows).toHaveLength(5);
    expect(sent.rows.every((r) => r.transport === "outbox")).toBe(true);
    expect((await page({ p_campaign_id: campaign.id, p_status: "queued" })).rows).toEqual([]);

    const campaigns = await db().call<Campaign[]>(asUser(admin), "admin_list_mail_campaigns", { p_limit: 100 });
    expect(campaigns[0]).toMatchObject({ id: campaign.id, recipients: 5, queued: 0, sent: 5, failed: 0 });
    expect((await page({})).campaign).toBeNull();
    expect((await page({ p_campaign_id: crypto.randomUUID() })).rows).toEqual([]);
    const bad = await attempt(page({ p_status: "bounced" }));
    expect(bad.ok ? "listed" : bad.hint).toBe("invalid_input");
  });
});

describe("who may", () => {
  const calls: [string, () => Record<string, unknown>][] = [
    ["admin_preview_mail", () => compose()],
    ["admin_send_mail", () => ({ ...compose(), p_request_id: null })],
    ["admin_list_mail_campaigns", () => ({ p_limit: 10 })],
    ["admin_list_mail_outbox", () => ({ p_campaign_id: null, p_status: null, p_before: null, p_limit: 10 })],
  ];

  it("players, unapproved users, nobody and anon are refused, and nothing is queued", async () => {
    const [{ n: before }] = await db().sql<{ n: number }>("select count(*)::int as n from public.mail_outbox");
    for (const [fn, args] of calls) {
      for (const caller of [asUser(people.keen), asUser(people.pending)]) {
        expect((await db().rpc(caller, fn, args())).error, `${fn} as a user`).toEqual(ADMIN_REQUIRED);
      }
      for (const caller of [{ role: "authenticated" }, service] as Caller[]) {
        expect((await db().rpc(caller, fn, args())).error, `${fn} as ${caller.role}`).toEqual(NOT_AUTHENTICATED);
      }
      const res = await db().rpc(anon, fn, args());
      expect(res.error?.message, `${fn} as anon`).toMatch(/permission denied for function/);
    }
    const [{ n: after }] = await db().sql<{ n: number }>("select count(*)::int as n from public.mail_outbox");
    expect(after).toBe(before);
  });

  it("no API role reads or writes the campaigns table directly", async () => {
    for (const caller of [anon, asUser(admin), asUser(people.keen)] as Caller[]) {
      const res = await db().as(caller, "select * from public.mail_campaigns");
      expect(res.error?.message).toMatch(/permission denied/);
    }
  });
});
