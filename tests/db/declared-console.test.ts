// The admin console's reads return declared types now (DECISIONS.md "Shapes from the database", the fourth batch):
// admin_dashboard (public.admin_dashboard: counts, 30 days and totals) and admin_list_activity
// (public.activity_page: rows, the next page's key, every kind recorded). The old bodies (80-admin-and-audit.sql
// before 20261201200501) run here word for word beside the new functions: the dashboard in the same transaction
// (it says when it was worked out), before and after sign-ups, purchases, top-ups, complaints and flags; the log
// page by page under several filters, and an empty one; both answers are compared as JSON.
import { beforeAll, describe, expect, it } from "vitest";
import { asUser, claimsOf, dbPerFile, eachPage } from "./support";

const db = dbPerFile();

const OLD_BODIES = `
create schema old;
create function old.admin_dashboard() returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  today date := (now() at time zone 'Europe/London')::date;
  first_day date := today - 29;
  since timestamptz := first_day::timestamp at time zone 'Europe/London';
  day_rows jsonb;
  phases jsonb;
begin
  perform private.require_admin();

  -- One row per Europe/London calendar day, the 29 days before today and today, zeros included.
  select jsonb_agg(jsonb_build_object('day', d.day,
                                      'signups', coalesce(s.n, 0),
                                      'tickets', coalesce(t.n, 0),
                                      'credit_sold', coalesce(c.amount, 0))
                   order by d.day)
    into day_rows
    from (select g::date as day from generate_series(first_day, today, interval '1 day') g) d
    left join (select (a.created_at at time zone 'Europe/London')::date as day, count(*) as n
                 from public.user_account_data a
                where a.created_at >= since
                group by 1) s on s.day = d.day
    -- Paid tickets as sold that day (a later refund does not rewrite the day's sales).
    left join (select (e.created_at at time zone 'Europe/London')::date as day, sum(e.quantity) as n
                 from public.entries e
                where e.kind = 'paid' and e.created_at >= since
                group by 1) t on t.day = d.day
    -- Credit bought: the ledger's top_up rows (money paid in, bonus not included).
    left join (select (l.created_at at time zone 'Europe/London')::date as day, sum(l.amount) as amount
                 from public.credit_ledger l
                where l.kind = 'top_up' and l.created_at >= since
                group by 1) c on c.day = d.day;

  -- Competitions by phase, the public site's definition (the unfinished ones only: the others grow forever).
  select coalesce(jsonb_object_agg(x.phase, x.n), '{}'::jsonb)
    into phases
    from (select private.competition_phase(c, now()) as phase, count(*) as n
            from public.competitions c
           where c.status in ('live', 'sold_out', 'closed')
           group by 1) x;

  return jsonb_build_object(
    'generated_at', now(),
    'from', first_day,
    'to', today,
    'counts', jsonb_build_object(
      'players', (select count(*) from public.user_account_data a where a.role = 'user'),
      'approved_players', (select count(*) from public.user_account_data a where a.role = 'user' and a.approved),
      -- The same accounts the approval queue lists.
      'pending_approvals', (select count(*) from public.user_account_data a where not a.approved and a.rejected_at is null),
      'live_competitions', coalesce((phases ->> 'live')::bigint, 0),
      'opening_soon', coalesce((phases ->> 'upcoming')::bigint, 0),
      'awaiting_draw', coalesce((phases ->> 'postal_window')::bigint, 0) + coalesce((phases ->> 'awaiting_draw')::bigint, 0),
      'open_complaints', (select count(*) from public.complaints c where c.status <> 'resolved'),
      'overdue_complaints', (select count(*) from public.complaints c
                              where (c.status = 'received' and c.acknowledge_by < now())
                                 or (c.status <> 'resolved' and c.respond_by < now())),
      -- Players with a player-protection flag awaiting review (player_flags, *_player_protection.sql).
      'flagged_players', (select count(distinct f.user_id) from public.player_flags f where f.status = 'open')),
    'days', day_rows,
    'totals', jsonb_build_object(
      'signups', (select sum((x ->> 'signups')::bigint) from jsonb_array_elements(day_rows) x),
      'tickets', (select sum((x ->> 'tickets')::bigint) from jsonb_array_elements(day_rows) x),
      'credit_sold', (select sum((x ->> 'credit_sold')::numeric) from jsonb_array_elements(day_rows) x)));
end;
$$;

create function old.admin_list_activity(p_actor text default null, p_kind text default null,
                                           p_subject text default null, p_from date default null,
                                           p_to date default null, p_before bigint default null,
                                           p_limit integer default 50)
returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  page_size integer := least(greatest(coalesce(p_limit, 50), 1), 200);
  page_rows jsonb;
  fetched integer;
  last_id bigint;
begin
  perform private.require_admin();
  perform private.activity_filter_check(p_actor, p_kind, p_subject, p_from, p_to);
  -- One row more than the page shows says whether there is an older page.
  select coalesce(jsonb_agg(to_jsonb(r) - 'n' order by r.id desc) filter (where r.n <= page_size), '[]'::jsonb),
         count(*),
         max(r.id) filter (where r.n = page_size)
    into page_rows, fetched, last_id
    from (select a.*, row_number() over (order by a.id desc) as n
            from private.activity_rows(p_actor, p_kind, p_subject, p_from, p_to, p_before, page_size + 1) a) r;
  return jsonb_build_object(
    'rows', page_rows,
    'next_before', case when fetched > page_size then last_id end,
    -- Every kind recorded, for the filter: a loose index scan over activity_log_action_idx.
    'kinds', (with recursive k(action) as (
                (select l.action from public.activity_log l order by l.action limit 1)
                union all
                select (select l.action from public.activity_log l where l.action > k.action order by l.action limit 1)
                  from k where k.action is not null)
              select coalesce(jsonb_agg(k.action order by k.action), '[]'::jsonb) from k where k.action is not null));
end;
$$;
`;

let admin: string;
beforeAll(async () => {
  await db().pg.exec(OLD_BODIES);
  admin = await db().createUser({ role: "super_admin", approved: true });
});

/** The old body's answer, as the admin. */
const asOld = (fn: string, args: unknown[]) => db().oldAnswer(asUser(admin), fn, args);

/** Both dashboards in one transaction, so `generated_at` (now()) is the same moment. */
async function bothDashboards(): Promise<{ now: unknown; before: unknown }> {
  return db().pg.transaction(async (tx) => {
    await tx.query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify(claimsOf(asUser(admin)))]);
    const now = (await tx.query<{ value: unknown }>("select to_json(t) as value from public.admin_dashboard() t"))
      .rows[0]?.value;
    const before = (await tx.query<{ value: unknown }>("select old.admin_dashboard() as value")).rows[0]?.value;
    return { now, before };
  });
}

describe("the admin console's reads as declared types", () => {
  it("answer the dashboard and every activity page what the jsonb versions did", async () => {
    const first = await bothDashboards();
    expect(first.now).toEqual(first.before);

    const player = await db().createPlayer({ credits: 25 });
    await db().createUser();
    const competition = await db().createCompetition(admin, { ticket_price: 1.5 });
    await db().call(asUser(player), "enter_competition", {
      p_competition_id: competition,
      p_quantity: 3,
      p_answer: "4",
    });
    await db().sql(
      "insert into public.player_flags (user_id, kind, period, details) values ($1, 'large_top_ups', '2026-11', '{}')",
      [player],
    );
    const later = await bothDashboards();
    expect(later.now).toEqual(later.before);
    expect(later.now).toMatchObject({ counts: { live_competitions: 1, flagged_players: 1 } });

    for (const [actor, kind, subject] of [
      [null, null, null],
      [null, "competition", null],
      ["nobody-at-all", null, null],
      [null, null, "Test prize"],
    ] as const) {
      await eachPage<number>(async (before) => {
        const now: { next_before: number | null } = await db().call(asUser(admin), "admin_list_activity", {
          p_actor: actor,
          p_kind: kind,
          p_subject: subject,
          p_before: before,
          p_limit: 2,
        });
        expect(now).toEqual(await asOld("admin_list_activity", [actor, kind, subject, null, null, before, 2]));
        return now.next_before;
      });
    }
  });
});
