// admin_user_ledger returns the declared public.admin_ledger_page now (docs/decisions/007,
// the third batch): an array of public.admin_ledger_row and the next page's key. The old body
// (80-admin-and-audit.sql before 20261130300301) runs here word for word beside the new function, page by page
// through a player's ledger (top-ups, an admin's adjustment, entries) and for a player with no rows, and both
// answers are compared as JSON. The fourth batch: admin_list_users (public.admin_user_page) and admin_get_user
// (public.admin_user_detail), their approval word now the approval_state enum; their old bodies (before
// 20261201200201) with their old helper, page by page through every filter and for a user in every state.
import { beforeAll, describe, expect, it } from "vitest";
import { asUser, dbPerFile, eachPage } from "./support";

const db = dbPerFile();

const OLD_ADMIN_USER_LEDGER = `
create schema old;
create function old.admin_user_ledger(p_user_id uuid, p_before bigint default null, p_limit integer default 25)
returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  page_size integer := least(greatest(coalesce(p_limit, 25), 1), 200);
  page_rows jsonb;
  fetched integer;
  last_id bigint;
begin
  perform private.require_admin();
  perform private.admin_user_target(p_user_id);
  select coalesce(jsonb_agg(jsonb_build_object(
           'id', r.id, 'kind', r.kind, 'amount', r.amount, 'balance_after', r.balance_after, 'reason', r.reason,
           'reference', r.reference, 'created_at', r.created_at, 'created_by_name', cb.name)
           order by r.id desc) filter (where r.n <= page_size), '[]'::jsonb),
         count(*),
         max(r.id) filter (where r.n = page_size)
    into page_rows, fetched, last_id
    from (select l.*, row_number() over (order by l.id desc) as n
            from public.credit_ledger l
           where l.user_id = p_user_id and (p_before is null or l.id < p_before)
           order by l.id desc
           limit page_size + 1) r
    left join public.profiles cb on cb.id = r.created_by;
  return jsonb_build_object('rows', page_rows, 'next_before', case when fetched > page_size then last_id end);
end;
$$;`;

// String.raw: the bodies' regular expressions keep their backslashes.
const OLD_ADMIN_USERS = String.raw`
create function old.protections_json(p_user uuid) returns jsonb
language sql set search_path = '' as $$
  select to_jsonb(private.protections_row(p_user))
$$;

create function old.admin_list_users(p_search text DEFAULT NULL::text, p_role text DEFAULT NULL::text, p_approval text DEFAULT NULL::text, p_kyc text DEFAULT NULL::text, p_cursor text DEFAULT NULL::text, p_limit integer DEFAULT 25, p_flagged boolean DEFAULT NULL::boolean)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
declare
  page_size integer := least(greatest(coalesce(p_limit, 25), 1), 100);
  search text := nullif(trim(p_search), '');
  pattern text;
  search_id uuid;
  cursor_at timestamptz;
  cursor_id uuid;
  page_rows jsonb;
  fetched integer;
  next_cursor text;
begin
  perform private.require_admin();
  if char_length(search) > 200 then
    raise exception 'Search for at most 200 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_role is not null and p_role not in ('user', 'admin', 'super_admin') then
    raise exception 'Unknown role: %', p_role using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_approval is not null and p_approval not in ('approved', 'pending', 'rejected', 'deleted') then
    raise exception 'Unknown approval state: %', p_approval using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_kyc is not null and p_kyc not in ('none', 'pending', 'verified', 'rejected') then
    raise exception 'Unknown KYC status: %', p_kyc using errcode = '22023', hint = 'invalid_input';
  end if;
  -- The cursor is what next_cursor said: the last row's created_at (seconds since the epoch, a dot,
  -- six digits of microseconds: exact, no floating point) and its id.
  if p_cursor is not null then
    if p_cursor !~ '^[0-9]{1,12}\.[0-9]{6}:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
      raise exception 'That page link is not valid' using errcode = '22023', hint = 'invalid_input';
    end if;
    cursor_at := to_timestamp(split_part(split_part(p_cursor, ':', 1), '.', 1)::bigint)
                 + split_part(split_part(p_cursor, ':', 1), '.', 2)::integer * interval '1 microsecond';
    cursor_id := split_part(p_cursor, ':', 2)::uuid;
  end if;
  if search ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    search_id := search::uuid;
  elsif search is not null then
    pattern := '%' || replace(replace(replace(search, '\', '\\'), '%', '\%'), '_', '\_') || '%';
  end if;

  select coalesce(jsonb_agg(private.admin_user_row(r.id) order by r.created_at desc, r.id desc)
                    filter (where r.n <= page_size), '[]'::jsonb),
         count(*)
    into page_rows, fetched
    from (select a.id, a.created_at, row_number() over (order by a.created_at desc, a.id desc) as n
            from public.user_account_data a
            join public.profiles p on p.id = a.id
           where (search is null or a.id = search_id or p.name ilike pattern or p.email ilike pattern)
             and (p_role is null or a.role = p_role::public.user_role)
             and (p_kyc is null or a.kyc_status = p_kyc::public.kyc_status)
             -- Flagged: with a player-protection flag awaiting review (player_flags, *_player_protection.sql).
             and (p_flagged is null
                  or p_flagged = exists (select 1 from public.player_flags f where f.user_id = a.id and f.status = 'open'))
             and (p_approval is null
                  or (p_approval = 'deleted' and a.deleted_at is not null)
                  or (p_approval = 'approved' and a.deleted_at is null and a.approved)
                  or (p_approval = 'rejected' and a.deleted_at is null and not a.approved and a.rejected_at is not null)
                  or (p_approval = 'pending' and a.deleted_at is null and not a.approved and a.rejected_at is null))
             and (cursor_at is null or (a.created_at, a.id) < (cursor_at, cursor_id))
           order by a.created_at desc, a.id desc
           limit page_size + 1) r;

  if fetched > page_size then
    select (extract(epoch from date_trunc('second', a.created_at)))::bigint || '.'
           || lpad((extract(microseconds from a.created_at)::bigint % 1000000)::text, 6, '0') || ':' || a.id
      into next_cursor
      from public.user_account_data a
     where a.id = ((page_rows -> (page_size - 1)) ->> 'id')::uuid;
  end if;
  return jsonb_build_object('rows', page_rows, 'next_cursor', next_cursor);
end;
$function$;

create function old.admin_get_user(p_user_id uuid) returns jsonb
language plpgsql set search_path = '' as $$
declare
  acct public.user_account_data;
begin
  perform private.require_admin();
  acct := private.admin_user_target(p_user_id);
  return jsonb_build_object(
    'user', private.admin_user_row(p_user_id) || jsonb_build_object(
      'date_of_birth', (select p.date_of_birth from public.profiles p where p.id = p_user_id),
      'town', (select p.town from public.profiles p where p.id = p_user_id),
      'email_notifications', (select p.email_notifications from public.profiles p where p.id = p_user_id),
      'approved_at', acct.approved_at,
      'approved_by_name', (select p.name from public.profiles p where p.id = acct.approved_by),
      'rejected_at', acct.rejected_at,
      'rejection_reason', acct.rejection_reason,
      'total_spent', acct.total_spent,
      'total_entries', acct.total_entries,
      'verified_at', acct.verified_at),
    -- Limits and breaks; a deleted account shows what it had.
    'protections', old.protections_json(p_user_id),
    'entries', (select coalesce(jsonb_agg(jsonb_build_object(
                  'id', e.id, 'competition_id', e.competition_id, 'competition_title', c.title,
                  'kind', e.kind, 'quantity', e.quantity, 'amount', e.amount, 'status', e.status,
                  'first_ticket', e.first_ticket, 'last_ticket', (select max(t.number) from public.tickets t where t.entry_id = e.id),
                  'created_at', e.created_at) order by e.created_at desc), '[]'::jsonb)
                  from (select * from public.entries x where x.user_id = p_user_id
                         order by x.created_at desc limit 50) e
                  join public.competitions c on c.id = e.competition_id),
    'activity', (select coalesce(jsonb_agg(jsonb_build_object(
                   'id', l.id, 'action', l.action, 'created_at', l.created_at, 'details', l.details,
                   'actor_id', l.actor_id, 'actor_name', ap.name,
                   'role', case when l.subject_id = p_user_id then 'subject' else 'actor' end)
                   order by l.id desc), '[]'::jsonb)
                   from (select * from public.activity_log x
                          where x.subject_id = p_user_id or x.actor_id = p_user_id
                          order by x.id desc limit 20) l
                   left join public.profiles ap on ap.id = l.actor_id),
    'large_adjustment_threshold', (private.setting('large_adjustment_threshold'))::numeric);
end;
$$;
`;

let admin: string;
beforeAll(async () => {
  await db().pg.exec(OLD_ADMIN_USER_LEDGER);
  await db().pg.exec(OLD_ADMIN_USERS);
  admin = await db().createUser({ role: "super_admin", approved: true });
});

/** The old body's answer, as the admin. */
const asOld = (fn: string, args: unknown[]) => db().oldAnswer(asUser(admin), fn, args);
const oldPage = (userId: string, before: number | null, limit: number) =>
  asOld("admin_user_ledger", [userId, before, limit]);

describe("admin_user_ledger as a declared type", () => {
  it("answers every page what the jsonb version did, and an empty ledger the same", async () => {
    const player = await db().createPlayer({ credits: 40 });
    const competition = await db().createCompetition(admin, { ticket_price: 2.5, total_tickets: 100 });
    await db().call(asUser(admin), "admin_adjust_credit", { p_user_id: player, p_amount: 12.34, p_reason: "Goodwill" });
    await db().call(asUser(player), "enter_competition", {
      p_competition_id: competition,
      p_quantity: 3,
      p_answer: "4",
    });
    let before: number | null = null;
    const kinds: string[] = [];
    for (let page = 0; page < 10; page++) {
      const now: { rows: { kind: string }[]; next_before: number | null } = await db().call(
        asUser(admin),
        "admin_user_ledger",
        { p_user_id: player, p_before: before, p_limit: 2 },
      );
      expect(now).toEqual(await oldPage(player, before, 2));
      kinds.push(...now.rows.map((r) => r.kind));
      before = now.next_before;
      if (before === null) break;
    }
    expect(kinds).toEqual(expect.arrayContaining(["entry", "admin_adjustment"]));
    expect(before).toBeNull();

    const empty = await db().createPlayer();
    expect(await db().call(asUser(admin), "admin_user_ledger", { p_user_id: empty })).toEqual(
      await oldPage(empty, null, 25),
    );
  });
});

describe("admin_list_users and admin_get_user as declared types", () => {
  it("answer every page, filter and user what the jsonb versions did", async () => {
    const sup = admin;
    const player = await db().createPlayer({ name: "Pia Player", credits: 30 });
    const competition = await db().createCompetition(admin, { ticket_price: 1.5 });
    await db().call(asUser(player), "enter_competition", {
      p_competition_id: competition,
      p_quantity: 2,
      p_answer: "4",
    });
    await db().call(asUser(admin), "admin_adjust_credit", { p_user_id: player, p_amount: 4.2, p_reason: "Goodwill" });
    await db().call(asUser(player), "take_break", { p_period: "1 week" });
    await db().sql(
      "insert into public.player_flags (user_id, kind, period, details) values ($1, 'large_top_ups', '2026-11', '{}')",
      [player],
    );
    const pending = await db().createUser({ name: "Pat Pending" });
    const rejected = await db().createUser({ name: "Rae Rejected" });
    await db().call(asUser(admin), "admin_reject_user", { p_user_id: rejected, p_reason: "Not eligible" });
    const deleted = await db().createPlayer({ name: "Dee Deleted" });
    await db().call(asUser(sup), "admin_delete_user", { p_user_id: deleted });
    const helper = await db().createUser({ name: "Ada Admin", role: "admin", approved: true });

    const filters: [string | null, string | null, string | null, boolean | null][] = [
      [null, null, null, null],
      [null, null, "approved", null],
      [null, null, "pending", null],
      [null, null, "rejected", null],
      [null, null, "deleted", null],
      [null, "admin", null, null],
      ["pia", null, null, null],
      [null, null, null, true],
      ["nobody at all", null, null, null],
    ];
    const approvals = new Set<string>();
    for (const [search, role, approval, flagged] of filters) {
      await eachPage<string>(async (cursor) => {
        const now: { rows: { approval: string }[]; next_cursor: string | null } = await db().call(
          asUser(admin),
          "admin_list_users",
          { p_search: search, p_role: role, p_approval: approval, p_cursor: cursor, p_limit: 2, p_flagged: flagged },
        );
        expect(now).toEqual(await asOld("admin_list_users", [search, role, approval, null, cursor, 2, flagged]));
        now.rows.forEach((r) => approvals.add(r.approval));
        return now.next_cursor;
      });
    }
    expect([...approvals].sort()).toEqual(["approved", "deleted", "pending", "rejected"]);

    for (const id of [player, pending, rejected, deleted, helper, sup]) {
      expect(await db().call(asUser(admin), "admin_get_user", { p_user_id: id })).toEqual(
        await asOld("admin_get_user", [id]),
      );
    }
    const page: { user: { open_flags: number }; entries: unknown[]; activity: unknown[]; protections: unknown } =
      await db().call(asUser(admin), "admin_get_user", { p_user_id: player });
    expect(page.user.open_flags).toBe(1);
    expect(page.entries).toHaveLength(1);
    expect(page.activity.length).toBeGreaterThan(1);
    expect(page.protections).toMatchObject({ state: "break" });

    // A user whose profile row is lost: the user part is null in both.
    await db().sql("delete from public.profiles where id = $1", [pending]);
    const lost = await db().call<{ user: unknown }>(asUser(admin), "admin_get_user", { p_user_id: pending });
    expect(lost).toEqual(await asOld("admin_get_user", [pending]));
    expect(lost.user).toBeNull();
  });
});
