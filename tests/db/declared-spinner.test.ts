// LabSpinner's results return declared types now, nested ones among them (docs/decisions/007,
// the third batch): a wheel holds an array of segments, the player's spinner a credits, refusal and
// seed composite and an array of spins. Their callers must get the JSON the jsonb versions gave, so the old
// bodies (60-spinner.sql before 20261130300001 and 20261130300401, their helpers included) run here, word for word
// in schema `old`, beside the new functions, for players with spins, a blocked player, a wheel with no spins and
// one with some, and the actions (a spin, a reveal, a rotation, a postal request); both answers are compared as JSON.
import { beforeAll, describe, expect, it } from "vitest";
import { anon, asUser, claimsOf, dbPerFile, type Caller } from "./support";

const db = dbPerFile({ seed: true });

const OLD_BODIES = `
create schema old;

create function old.wheel_json(p_wheel_id bigint) returns jsonb
language sql stable set search_path = '' as $$
  with segs as (
    select s.*, sum(s.weight) over () as total from public.spinner_segments s where s.wheel_id = p_wheel_id
  )
  select jsonb_build_object(
    'wheel_id', p_wheel_id,
    'total_weight', (select max(total) from segs),
    'expected_prize', (select round(sum(prize_credits * weight) / max(total), 4) from segs),
    'segments', coalesce((select jsonb_agg(jsonb_build_object(
        'position', position, 'label', label, 'colour', colour, 'label_colour', label_colour,
        'prize_credits', prize_credits, 'weight', weight,
        'probability', round(weight::numeric / total, 6)) order by position) from segs), '[]'::jsonb))
$$;

create function old.spin_credits(p_user uuid) returns jsonb
language sql stable set search_path = '' as $$
  with spend as (
    select greatest(
             coalesce(-sum(l.amount) filter (where l.kind = 'entry'), 0)
             - coalesce(sum(l.amount) filter (where l.kind = 'refund' and l.reference like 'entry:%'), 0),
             0) as net
      from public.credit_ledger l
     where l.user_id = p_user and l.kind in ('entry', 'refund')
  ), counts as (
    select s.net,
           floor(s.net / 10)::integer as earned,
           (select count(*)::integer from public.spinner_grants g where g.user_id = p_user) as granted,
           (select count(*)::integer from public.spinner_spins sp where sp.user_id = p_user and sp.source = 'earned')
             as earned_used,
           (select count(*)::integer from public.spinner_spins sp where sp.user_id = p_user and sp.source = 'postal')
             as postal_used
      from spend s
  )
  select jsonb_build_object(
    'ticket_spend', c.net,
    'earned', c.earned,
    'granted', c.granted,
    'used', c.earned_used + c.postal_used,
    'earned_available', greatest(c.earned - c.earned_used, 0),
    'postal_available', c.granted - c.postal_used,
    'available', greatest(c.earned - c.earned_used, 0) + (c.granted - c.postal_used),
    'spend_per_spin', 10,
    'toward_next', c.net - c.earned * 10,
    'to_next', 10 - (c.net - c.earned * 10))
  from counts c
$$;

create function old.spin_json(sp public.spinner_spins) returns jsonb
language sql stable set search_path = '' as $$
  select jsonb_build_object(
    'id', sp.id, 'seed_id', sp.seed_id, 'client_seed', sp.client_seed, 'nonce', sp.nonce, 'wheel_id', sp.wheel_id,
    'attempt', sp.attempt, 'value', sp.value, 'segment_position', sp.segment_position, 'label', sp.label,
    'prize_credits', sp.prize_credits, 'created_at', sp.created_at)
$$;

create function old.get_spinner_wheel() returns jsonb
language sql stable set search_path = '' as $$
  select old.wheel_json(private.current_wheel_id()) || jsonb_build_object('enabled', private.spinner_enabled())
$$;

create function old.get_my_spinner() returns jsonb
language plpgsql set search_path = '' as $$
declare
  uid uuid := private.require_user();
  seed public.spinner_seeds%rowtype := private.active_spinner_seed(uid);
begin
  return jsonb_build_object(
    'enabled', private.spinner_enabled(),
    'credits', old.spin_credits(uid),
    'block', private.play_block(uid),
    'seed', private.seed_json(seed),
    'balance', (select a.credits from public.user_account_data a where a.id = uid),
    'recent_spins', coalesce((select jsonb_agg(old.spin_json(sp) order by sp.id desc)
                                from (select * from public.spinner_spins s where s.user_id = uid
                                       order by s.id desc limit 10) sp), '[]'::jsonb));
end;
$$;

create function old.admin_get_spinner() returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  wheel bigint;
begin
  perform private.require_admin();
  wheel := private.current_wheel_id();
  return jsonb_build_object(
    'enabled', private.spinner_enabled(),
    'wheel', old.wheel_json(wheel) || jsonb_build_object(
      'created_at', (select w.created_at from public.spinner_wheels w where w.id = wheel),
      'created_by_email', (select p.email from public.spinner_wheels w join public.profiles p on p.id = w.created_by
                            where w.id = wheel)),
    'observed', coalesce((select jsonb_agg(jsonb_build_object('position', s.position,
                                   'count', (select count(*) from public.spinner_spins sp
                                              where sp.wheel_id = wheel and sp.segment_position = s.position))
                                   order by s.position)
                            from public.spinner_segments s where s.wheel_id = wheel), '[]'::jsonb),
    'spins', (select count(*) from public.spinner_spins sp where sp.wheel_id = wheel),
    'versions', coalesce((select jsonb_agg(jsonb_build_object('wheel_id', w.id, 'created_at', w.created_at,
                                   'created_by_email', (select p.email from public.profiles p where p.id = w.created_by),
                                   'spins', (select count(*) from public.spinner_spins sp where sp.wheel_id = w.id))
                                   order by w.id desc)
                            from (select * from public.spinner_wheels order by id desc limit 10) w), '[]'::jsonb),
    'recent_grants', coalesce((select jsonb_agg(jsonb_build_object('id', g.id, 'user_id', g.user_id,
                                   'email', (select p.email from public.profiles p where p.id = g.user_id),
                                   'reference', g.reference, 'created_at', g.created_at,
                                   'created_by_email', (select p.email from public.profiles p where p.id = g.created_by))
                                   order by g.id desc)
                                 from (select * from public.spinner_grants order by id desc limit 20) g), '[]'::jsonb));
end;
$$;

create function old.admin_user_spins(p_user_id uuid) returns jsonb
language plpgsql stable set search_path = '' as $$
begin
  perform private.require_admin();
  perform private.admin_user_target(p_user_id);
  return jsonb_build_object(
    'credits', old.spin_credits(p_user_id),
    'spins', coalesce((select jsonb_agg(old.spin_json(sp) order by sp.id desc)
                         from (select * from public.spinner_spins s where s.user_id = p_user_id
                                order by s.id desc limit 20) sp), '[]'::jsonb),
    'grants', coalesce((select jsonb_agg(jsonb_build_object('id', g.id, 'reference', g.reference,
                                   'created_at', g.created_at) order by g.id desc)
                          from (select * from public.spinner_grants s where s.user_id = p_user_id
                                 order by s.id desc limit 20) g), '[]'::jsonb));
end;
$$;`;

/**
 * The old body's answer (`call`: an expression, or a select list with its from clause), run as the database owner
 * with the caller's claims (as the gateway sets them).
 */
async function old(caller: Caller, call: string, params: unknown[] = []): Promise<unknown> {
  return db().pg.transaction(async (tx) => {
    await tx.query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify(claimsOf(caller))]);
    return (await tx.query<{ value: unknown }>(`select (select ${call}) as value`, params)).rows[0]?.value;
  });
}

const SEGMENTS = [
  { label: "Nothing", colour: "#1d4ed8", label_colour: "#ffffff", prize_credits: 0, weight: 7 },
  { label: "£1.50", colour: "#fde68a", label_colour: "#111111", prize_credits: 1.5, weight: 2 },
  { label: "£10", colour: "#065f46", label_colour: "#ffffff", prize_credits: 10, weight: 1 },
];

let admin: string;
let spinner: string;
let resting: string;
let fresh: string;
beforeAll(async () => {
  await db().pg.exec(OLD_BODIES);
  admin = await db().createAdmin();
  // A player with postal spins spent (prizes or not), one on a break with a spare credit, one with nothing yet.
  [spinner, resting, fresh] = [await db().createPlayer(), await db().createPlayer(), await db().createPlayer()];
  for (const uid of [spinner, spinner, spinner, resting]) {
    await db().call(asUser(admin), "admin_record_spin_request", { p_user_id: uid, p_reference: "Postcard" });
  }
  for (let i = 0; i < 3; i++) await db().call(asUser(spinner), "spin_wheel");
  await db().call(asUser(resting), "take_break", { p_period: "1 week" });
});

describe("LabSpinner's declared results answer the JSON the jsonb versions gave", () => {
  it("get_my_spinner: spins, a block and a first visit", async () => {
    const blocks: unknown[] = [];
    for (const uid of [spinner, resting, fresh]) {
      const now = await db().call<{ block: unknown; recent_spins: unknown[] }>(asUser(uid), "get_my_spinner");
      expect(now).toEqual(await old(asUser(uid), "old.get_my_spinner()"));
      blocks.push(now.block);
    }
    expect(blocks).toEqual([null, expect.objectContaining({ code: "on_break" }), null]);
  });

  it("get_spinner_wheel, admin_get_spinner and admin_user_spins, before and after a new wheel version", async () => {
    const compare = async () => {
      expect(await db().call(anon, "get_spinner_wheel")).toEqual(await old(anon, "old.get_spinner_wheel()"));
      expect(await db().call(asUser(admin), "admin_get_spinner")).toEqual(
        await old(asUser(admin), "old.admin_get_spinner()"),
      );
      for (const uid of [spinner, resting, fresh]) {
        expect(await db().call(asUser(admin), "admin_user_spins", { p_user_id: uid })).toEqual(
          await old(asUser(admin), "old.admin_user_spins($1)", [uid]),
        );
      }
    };
    await compare();
    const wheel = await db().call<{ wheel_id: number; segments: unknown[] }>(
      asUser(admin),
      "admin_update_spinner_wheel",
      { p_segments: SEGMENTS },
    );
    expect(wheel).toEqual(await old(asUser(admin), "old.wheel_json($1)", [wheel.wheel_id]));
    expect(wheel.segments).toHaveLength(3);
    // The new version has no spins yet (observed counts of 0), then some.
    await compare();
    await db().call(asUser(admin), "admin_record_spin_request", { p_user_id: spinner, p_reference: "Letter" });
    await db().call(asUser(spinner), "spin_wheel");
    await compare();
  });

  it("spin_wheel, rotate_spinner_seed, reveal_spinner_spin and admin_record_spin_request", async () => {
    const granted = await db().call<{ grant_id: number }>(asUser(admin), "admin_record_spin_request", {
      p_user_id: spinner,
      p_reference: "Card",
    });
    expect(granted).toEqual(
      await old(
        asUser(admin),
        `jsonb_build_object('grant_id', g.id, 'user_id', g.user_id, 'reference', g.reference,
                            'credits', old.spin_credits(g.user_id))
           from public.spinner_grants g where g.id = $1`,
        [granted.grant_id],
      ),
    );

    const spun = await db().call<{ id: number; balance: number }>(asUser(spinner), "spin_wheel");
    expect(spun).toEqual(
      await old(
        asUser(spinner),
        `old.spin_json(sp) || jsonb_build_object('server_seed_hash', s.server_seed_hash, 'balance', a.credits,
                                                 'credits', old.spin_credits(sp.user_id))
           from public.spinner_spins sp
           join public.spinner_seeds s on s.id = sp.seed_id
           join public.user_account_data a on a.id = sp.user_id
          where sp.id = $1`,
        [spun.id],
      ),
    );

    // The spin's pair is still active: revealing it rotates it out first.
    const reveal = await db().call<{ revealed: { id: number }; seed: { id: number } }>(
      asUser(spinner),
      "reveal_spinner_spin",
      { p_spin_id: spun.id },
    );
    const revealAgain = (spinId: number, revealed: number, active: number) =>
      old(
        asUser(spinner),
        `jsonb_build_object('spin', old.spin_json(sp), 'revealed', private.seed_json(r),
                            'wheel', old.wheel_json(sp.wheel_id), 'seed', private.seed_json(n))
           from public.spinner_spins sp, public.spinner_seeds r, public.spinner_seeds n
          where sp.id = $1 and r.id = $2 and n.id = $3`,
        [spinId, revealed, active],
      );
    expect(reveal).toEqual(await revealAgain(spun.id, reveal.revealed.id, reveal.seed.id));
    // A spin whose pair was revealed already: no rotation, the same shape.
    const again = await db().call<{ revealed: { id: number }; seed: { id: number } }>(
      asUser(spinner),
      "reveal_spinner_spin",
      { p_spin_id: spun.id },
    );
    expect(again).toEqual(await revealAgain(spun.id, again.revealed.id, again.seed.id));

    const rotation = await db().call<{ revealed: { id: number }; seed: { id: number } }>(
      asUser(spinner),
      "rotate_spinner_seed",
      { p_client_seed: "my-own-seed" },
    );
    expect(rotation).toEqual(
      await old(
        asUser(spinner),
        `jsonb_build_object('revealed', private.seed_json(r), 'seed', private.seed_json(n))
           from public.spinner_seeds r, public.spinner_seeds n where r.id = $1 and n.id = $2`,
        [rotation.revealed.id, rotation.seed.id],
      ),
    );
    expect(rotation).toMatchObject({ seed: { client_seed: "my-own-seed", next_nonce: 0, server_seed: null } });
  });
});
