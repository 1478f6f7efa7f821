// Player protection's admin calls return declared types now (docs/decisions/007, the fourth
// batch): admin_list_player_flags (setof public.player_flag, the player nested), admin_get_player_protection
// (public.player_protection_record: flags and interventions) and admin_review_player_flag (public.player_flag).
// The old bodies (50-player-protection.sql before 20261201200301) and their helpers run here word for word beside
// the new functions, through open and reviewed flags, interventions, a restriction and a deleted player, and both
// answers are compared as JSON.
import { beforeAll, describe, expect, it } from "vitest";
import { asUser, dbPerFile } from "./support";

const db = dbPerFile();

const OLD_BODIES = `
create schema old;
create function old.player_flag_json(p_flag_id uuid) returns jsonb
language sql stable set search_path = '' as $$
  select jsonb_build_object(
    'id', f.id,
    'user', jsonb_build_object('id', f.user_id, 'name', coalesce(p.name, 'Deleted user'), 'email', p.email),
    'kind', f.kind,
    'details', f.details,
    'raised_at', f.raised_at,
    'status', f.status,
    'reviewed_at', f.reviewed_at,
    'reviewed_by_name', rb.name,
    'review_note', f.review_note,
    'intervention_kind', (select i.kind from public.player_interventions i where i.flag_id = f.id
                           order by i.created_at desc limit 1))
  from public.player_flags f
  left join public.profiles p on p.id = f.user_id
  left join public.profiles rb on rb.id = f.reviewed_by
  where f.id = p_flag_id
$$;

create function old.player_intervention_json(p_id uuid) returns jsonb
language sql stable set search_path = '' as $$
  select to_jsonb(private.player_intervention_of(p_id))
$$;

create function old.admin_list_player_flags(p_status text DEFAULT 'open'::text, p_limit integer DEFAULT 100)
 RETURNS jsonb
 LANGUAGE plpgsql

 SET search_path TO ''
AS $function$
declare
  v_status text := coalesce(p_status, 'open');
  page_size integer := least(greatest(coalesce(p_limit, 100), 1), 500);
begin
  perform private.require_admin();
  if v_status not in ('open', 'reviewed') then
    raise exception 'Status must be open or reviewed' using errcode = '22023', hint = 'invalid_input';
  end if;
  -- The queue is always current: anything new since the cron's last run is raised first.
  perform private.raise_player_flags();
  return (select coalesce(jsonb_agg(old.player_flag_json(f.id)
                                    order by case when v_status = 'open' then f.raised_at end,
                                             f.reviewed_at desc), '[]'::jsonb)
            from (select x.id, x.raised_at, x.reviewed_at from public.player_flags x
                   where x.status = v_status::public.flag_status
                   order by case when v_status = 'open' then x.raised_at end, x.reviewed_at desc
                   limit page_size) f);
end;
$function$;

create function old.admin_get_player_protection(p_user_id uuid) returns jsonb
language plpgsql stable set search_path = '' as $$
begin
  perform private.require_admin();
  perform private.admin_user_target(p_user_id);
  return jsonb_build_object(
    'restricted_at', (select pp.restricted_at from public.player_protections pp where pp.user_id = p_user_id),
    'flags', (select coalesce(jsonb_agg(old.player_flag_json(f.id) order by f.raised_at desc), '[]'::jsonb)
                from (select x.id, x.raised_at from public.player_flags x where x.user_id = p_user_id
                       order by x.raised_at desc limit 50) f),
    'interventions', (select coalesce(jsonb_agg(old.player_intervention_json(i.id) order by i.created_at desc), '[]'::jsonb)
                        from (select x.id, x.created_at from public.player_interventions x where x.user_id = p_user_id
                               order by x.created_at desc limit 50) i));
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

/** A flag as the cron raises one (its own moment, so the queue's order is decided). */
async function flag(userId: string, kind: string, period: string, minutesAgo: number): Promise<string> {
  const [{ id }] = await db().sql<{ id: string }>(
    `insert into public.player_flags (user_id, kind, period, details, raised_at)
     values ($1, $2, $3, $4, now() - make_interval(mins => $5)) returning id`,
    [
      userId,
      kind,
      period,
      JSON.stringify({ total: 1250.5, top_ups: 3, from: "2026-11-01T00:00:00+00:00" }),
      minutesAgo,
    ],
  );
  return id;
}

describe("player protection's admin calls as declared types", () => {
  it("answer the queue, a player's record and a review what the jsonb versions did", async () => {
    const sameQueue = async (status: string, limit: number) =>
      expect(await db().call(asUser(admin), "admin_list_player_flags", { p_status: status, p_limit: limit })).toEqual(
        await asOld("admin_list_player_flags", [status, limit]),
      );
    const sameRecord = async (userId: string) => {
      const now = await db().call(asUser(admin), "admin_get_player_protection", { p_user_id: userId });
      expect(now).toEqual(await asOld("admin_get_player_protection", [userId]));
      return now as { restricted_at: string | null; flags: unknown[]; interventions: unknown[] };
    };
    await sameQueue("open", 100);
    await sameQueue("reviewed", 100);

    const player = await db().createPlayer({ name: "Fay Flagged" });
    const other = await db().createPlayer({ name: "Otto Other" });
    const gone = await db().createPlayer({ name: "Gil Gone" });
    expect(await sameRecord(player)).toEqual({ restricted_at: null, flags: [], interventions: [] });
    const first = await flag(player, "large_top_ups", "2026-10", 30);
    const second = await flag(player, "limit_reached", "2026-11", 20);
    await flag(other, "limit_raises", "2026-11", 10);
    await flag(gone, "large_top_ups", "2026-11", 5);
    await db().call(asUser(admin), "admin_delete_user", { p_user_id: gone });
    await sameQueue("open", 100);
    await sameQueue("open", 2);

    const reviewed = await db().call(asUser(admin), "admin_review_player_flag", {
      p_flag_id: first,
      p_note: "Called them, all fine",
      p_intervention: "contacted",
    });
    expect(reviewed).toEqual(await asOld("player_flag_json", [first]));
    expect(reviewed).toMatchObject({ status: "reviewed", intervention_kind: "contacted" });
    const plain = await db().call(asUser(admin), "admin_review_player_flag", { p_flag_id: second, p_note: "Seen" });
    expect(plain).toEqual(await asOld("player_flag_json", [second]));
    await db().call(asUser(admin), "admin_record_intervention", {
      p_user_id: player,
      p_kind: "restricted",
      p_note: "Restricted while we talk",
    });
    await sameQueue("open", 100);
    await sameQueue("reviewed", 100);
    const record = await sameRecord(player);
    expect(record.restricted_at).not.toBeNull();
    expect(record.flags).toHaveLength(2);
    expect(record.interventions).toHaveLength(2);
    await sameRecord(other);
    await sameRecord(gone);
  });
});
