// get_entry_quote, get_my_entries and get_my_prizes return declared types now (DECISIONS.md "Shapes from the
// database", the fourth batch): public.entry_quote (its block a public.refusal), setof public.my_entry (competition
// and draw nested) and setof public.my_prize (competition and story nested). The old bodies (30-competitions.sql
// before 20261201200001) run here word for word beside the new functions for the same callers, through a
// competition's life (bought, a wrong answer, sold out, drawn, claimed, consented, verified, delivered) and for
// players who cannot play (pending, rejected, on a break) or have nothing yet, and both answers are compared as JSON.
import { beforeAll, describe, expect, it } from "vitest";
import { anon, asUser, dbPerFile, eachPage, type Caller } from "./support";

const db = dbPerFile();

const OLD_BODIES = `
create schema old;
create function old.get_entry_quote(p_competition_id uuid) returns jsonb
language plpgsql set search_path = '' as $$
declare
  uid uuid := private.require_user_first_step();
  acct public.user_account_data%rowtype;
  c public.competitions%rowtype;
  held integer;
  cap_left integer;
  tickets_left integer;
  balance numeric(12, 2);
  quoted integer;
begin
  select * into c from public.competitions where id = p_competition_id;
  if not found or (c.status = 'draft' and not public.is_admin()) then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  select * into acct from public.user_account_data a where a.id = uid;
  balance := coalesce(acct.credits, 0);
  select count(*) into held from public.tickets t where t.competition_id = c.id and t.user_id = uid;
  cap_left := greatest(c.max_tickets_per_user - held, 0);
  tickets_left := greatest(c.total_tickets - c.tickets_sold, 0);
  -- Prices for every quantity the selector can offer, capped so the answer stays small.
  quoted := least(cap_left, tickets_left, 1000);
  return jsonb_build_object(
    'balance', balance,
    'approved', coalesce(acct.approved, false),
    'rejected', acct.rejected_at is not null and not coalesce(acct.approved, false),
    'held', held,
    'cap_left', cap_left,
    'tickets_left', tickets_left,
    'costs', coalesce((select jsonb_agg(c.ticket_price * q order by q) from generate_series(1, quoted) q), '[]'::jsonb),
    'shortfalls', coalesce((select jsonb_agg(greatest(c.ticket_price * q - balance, 0) order by q)
                              from generate_series(1, quoted) q), '[]'::jsonb),
    'skill_retry_at', case when c.skill_question is not null then private.skill_answer_retry_at(uid, c.id) end,
    'block', private.play_block(uid));
end;
$$;

create function old.get_my_entries() returns jsonb
language plpgsql stable set search_path = '' as $$
begin
  return (
    select coalesce(jsonb_agg(jsonb_build_object(
        'entry_id', e.id,
        'kind', e.kind,
        'quantity', e.quantity,
        'amount', e.amount,
        'status', e.status,
        'created_at', e.created_at,
        'ticket_numbers', to_jsonb(private.entry_ticket_numbers(e.id)),
        'competition', jsonb_build_object(
          'id', c.id, 'slug', c.slug, 'title', c.title, 'status', c.status, 'image', c.images[1],
          'closes_at', c.closes_at, 'total_tickets', c.total_tickets, 'tickets_sold', c.tickets_sold),
        'draw', (select jsonb_build_object(
                   'id', d.id, 'winning_number', d.winning_number, 'drawn_at', d.drawn_at,
                   'won', d.winning_ticket_id in (select t.id from public.tickets t where t.entry_id = e.id),
                   'prize_description', c.prize_description,
                   'cash_alternative', c.cash_alternative,
                   'prize_choice', case when d.winner_user_id = e.user_id
                                         and d.winning_ticket_id in (select t.id from public.tickets t where t.entry_id = e.id)
                                        then d.prize_choice end,
                   'prize_status', d.prize_status)
                 from public.draws d where d.competition_id = c.id)
      ) order by e.created_at desc, e.id), '[]'::jsonb)
    from public.entries e
    join public.competitions c on c.id = e.competition_id
    where e.user_id = private.require_user());
end;
$$;

create function old.get_my_prizes() returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  return coalesce((
    select jsonb_agg(jsonb_build_object(
             'draw_id', d.id,
             'competition', jsonb_build_object('id', c.id, 'slug', c.slug, 'title', c.title, 'image', c.images[1]),
             'prize_description', c.prize_description,
             'prize_value', c.prize_value,
             'cash_alternative', c.cash_alternative,
             'winning_number', d.winning_number,
             'drawn_at', d.drawn_at,
             'prize_status', d.prize_status,
             'prize_choice', d.prize_choice,
             'delivery_address', d.delivery_address,
             'claimed_at', d.claimed_at,
             'verified_at', d.verified_at,
             'delivered_at', d.delivered_at,
             'proof_of_delivery', case when d.prize_status = 'delivered' then d.proof_of_delivery end,
             'story', (select jsonb_build_object('consent', s.consent, 'consent_source', s.consent_source,
                                                 'consent_changed_at', s.consent_changed_at,
                                                 'published', s.photo_path is not null or s.quote is not null)
                         from public.winner_stories s where s.draw_id = d.id))
           order by d.drawn_at desc)
      from public.draws d
      join public.competitions c on c.id = d.competition_id
     where d.winner_user_id = uid), '[]'::jsonb);
end;
$$;

create function old.admin_list_instant_win_fulfilment() returns jsonb
language plpgsql stable set search_path = '' as $$
begin
  perform private.require_admin();
  return (
    select coalesce(jsonb_agg(jsonb_build_object(
             'id', w.id, 'competition_title', c.title, 'slug', c.slug, 'prize', p.title, 'kind', p.kind,
             'ticket_number', w.ticket_number, 'display_name', w.display_name, 'user_id', w.user_id,
             'email', u.email, 'postal_name', pe.name, 'postal_address', pe.address,
             'status', w.status, 'won_at', w.won_at, 'delivered_at', w.delivered_at)
             order by w.won_at desc), '[]'::jsonb)
      from public.instant_wins w
      join public.competitions c on c.id = w.competition_id
      join public.instant_win_prizes p on p.id = w.prize_id
      left join auth.users u on u.id = w.user_id
      left join public.postal_entries pe on pe.entry_id = w.entry_id
     where w.status <> 'awarded');
end;
$$;

create function old.get_my_ledger_page(p_kind text DEFAULT NULL::text, p_month date DEFAULT NULL::date, p_before bigint DEFAULT NULL::bigint, p_limit integer DEFAULT 50)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
declare
  uid uuid := private.require_user();
  page_size integer := least(greatest(coalesce(p_limit, 50), 1), 200);
  from_at timestamptz := private.month_start(p_month::timestamp at time zone 'Europe/London');
  -- The next month's start, found from inside it, so the clock change cannot shift it.
  to_at timestamptz := private.month_start(from_at + interval '32 days');
  page_rows jsonb;
  last_id bigint;
  more boolean;
begin
  perform private.ledger_filter_check(p_kind);
  select coalesce(jsonb_agg(jsonb_build_object('id', x.id, 'kind', x.kind, 'amount', x.amount, 'balance_after', x.balance_after,
                                               'reason', x.reason, 'reference', x.reference, 'created_at', x.created_at)
                            order by x.id desc), '[]'::jsonb),
         min(x.id)
    into page_rows, last_id
    from (select l.* from public.credit_ledger l
           where l.user_id = uid and (p_kind is null or l.kind = p_kind::public.ledger_kind)
             and (from_at is null or (l.created_at >= from_at and l.created_at < to_at))
             and (p_before is null or l.id < p_before)
           order by l.id desc limit page_size) x;
  more := last_id is not null and exists (
    select 1 from public.credit_ledger l
     where l.user_id = uid and (p_kind is null or l.kind = p_kind::public.ledger_kind)
       and (from_at is null or (l.created_at >= from_at and l.created_at < to_at)) and l.id < last_id);
  return jsonb_build_object(
    'rows', page_rows,
    'next_before', case when more then last_id end,
    'totals', (select jsonb_build_object('count', count(*),
                                         'credits_in', coalesce(sum(l.amount) filter (where l.amount > 0), 0),
                                         'credits_out', coalesce(-sum(l.amount) filter (where l.amount < 0), 0),
                                         'net', coalesce(sum(l.amount), 0))
                 from public.credit_ledger l
                where l.user_id = uid and (p_kind is null or l.kind = p_kind::public.ledger_kind)
                  and (from_at is null or (l.created_at >= from_at and l.created_at < to_at))));
end;
$function$;

create function old.competition_json(p_id uuid, p_admin boolean default false) returns jsonb
language plpgsql stable set search_path = '' as $$
begin
  return (
    select jsonb_build_object(
      'id', c.id,
      'slug', c.slug,
      'title', c.title,
      'summary', c.summary,
      'description', c.description,
      'prize_description', c.prize_description,
      'prize_value', c.prize_value,
      'cash_alternative', c.cash_alternative,
      'images', to_jsonb(c.images),
      'ticket_price', c.ticket_price,
      'total_tickets', c.total_tickets,
      'tickets_sold', c.tickets_sold,
      'tickets_left', c.total_tickets - c.tickets_sold,
      'max_tickets_per_user', c.max_tickets_per_user,
      'ticket_numbering', c.ticket_numbering,
      'opens_at', c.opens_at,
      'closes_at', c.closes_at,
      'postal_deadline', coalesce(c.postal_deadline, private.default_postal_deadline(c.closes_at)),
      'draw_at', coalesce(c.draw_at, c.postal_deadline, private.default_postal_deadline(c.closes_at)),
      'postal_entries', (select count(*) from public.entries e
                          where e.competition_id = c.id and e.kind = 'postal' and e.status = 'active'),
      'postal_tickets', c.postal_tickets,
      'postal_tickets_per_entry', private.stamp_parity(c.ticket_price, c.max_tickets_per_user),
      'stamp_price', (private.setting('stamp_price') #>> '{}')::numeric,
      'entry_list_open', private.entry_list_open(c),
      'status', c.status,
      'is_open', c.status = 'live' and c.opens_at <= now() and c.closes_at > now() and c.tickets_sold < c.total_tickets,
      'skill_question', c.skill_question,
      'skill_options', to_jsonb(c.skill_options),
      'seed_commitment', c.seed_commitment,
      'external_randomness', c.external_randomness,
      'published_at', c.published_at,
      'closed_at', c.closed_at,
      'cancelled_at', c.cancelled_at,
      'cancel_reason', c.cancel_reason,
      'draw', (select jsonb_build_object(
                 'id', d.id, 'algorithm', d.algorithm, 'winning_number', d.winning_number,
                 'winner_display_name', d.winner_display_name, 'winner_town', d.winner_town,
                 'ticket_count', d.ticket_count, 'drawn_at', d.drawn_at,
                 'story', private.winner_story_json(d.id))
               from public.draws d where d.competition_id = c.id)
    ) || case when p_admin then jsonb_build_object(
      'skill_answer', c.skill_answer,
      'created_by', c.created_by,
      'created_at', c.created_at,
      'updated_at', c.updated_at,
      'entry_count', (select count(*) from public.entries e where e.competition_id = c.id and e.status = 'active'),
      'postal_entry_count', (select count(*) from public.postal_entries pe
                               join public.entries e on e.id = pe.entry_id
                              where pe.competition_id = c.id and e.status = 'active'),
      'revenue', (select coalesce(sum(e.amount), 0) from public.entries e where e.competition_id = c.id and e.status = 'active'),
      'prize_status', (select d.prize_status from public.draws d where d.competition_id = c.id),
      'prize_choice', (select d.prize_choice from public.draws d where d.competition_id = c.id))
    else '{}'::jsonb end
    from public.competitions c
    where c.id = p_id);
end;
$$;

create function old.ticket_bundles(c public.competitions) returns jsonb
language sql stable set search_path = '' as $$
  -- The entry form's quick picks (components/competitions/entry-panel.tsx) that one person may buy now.
  select coalesce(jsonb_agg(jsonb_build_object('tickets', q, 'cost', c.ticket_price * q) order by q), '[]'::jsonb)
    from unnest(array[1, 5, 10, 25]) q
   where q <= least(c.max_tickets_per_user, c.total_tickets - c.tickets_sold)
$$;

create function old.list_competitions(p_status text DEFAULT NULL::text)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
begin
  if p_status is not null and p_status not in ('live', 'sold_out', 'closed', 'drawn', 'cancelled') then
    raise exception 'Unknown status: %', p_status using errcode = '22023', hint = 'invalid_input';
  end if;
  return coalesce((
    select jsonb_agg(old.competition_json(c.id)
                     order by (c.status = 'live') desc,
                              case when c.status = 'live' then c.closes_at end asc,
                              c.closes_at desc)
      from public.competitions c
     where c.status <> 'draft' and (p_status is null or c.status = p_status::public.competition_status)), '[]'::jsonb);
end;
$function$;

create function old.get_competition(p_slug text) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  c public.competitions%rowtype;
  uid uuid := auth.uid();
  mine integer[];
begin
  select * into c from public.competitions where slug = lower(btrim(p_slug));
  if not found or (c.status = 'draft' and not public.is_admin()) then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  if uid is not null then
    select coalesce(array_agg(t.number order by t.number), '{}') into mine
      from public.tickets t where t.competition_id = c.id and t.user_id = uid;
  end if;
  return old.competition_json(c.id)
      || jsonb_build_object('my_tickets', to_jsonb(mine), 'bundles', old.ticket_bundles(c));
end;
$$;
`;

const NO_QUESTION = { skill_question: null, skill_options: null, skill_answer: null };

let admin: string;
beforeAll(async () => {
  await db().pg.exec(OLD_BODIES);
  admin = await db().createUser({ role: "super_admin", approved: true });
});

/** The old body's answer for `userId` (or another caller), as the same caller. */
const old = (userId: string | Caller, fn: string, args: unknown[] = []) =>
  db().oldAnswer(typeof userId === "string" ? asUser(userId) : userId, fn, args);

async function sameQuote(userId: string, competitionId: string): Promise<Record<string, unknown>> {
  const now = await db().call<Record<string, unknown>>(asUser(userId), "get_entry_quote", {
    p_competition_id: competitionId,
  });
  expect(now).toEqual(await old(userId, "get_entry_quote", [competitionId]));
  return now;
}

async function sameEntriesAndPrizes(userId: string): Promise<{ entries: unknown[]; prizes: unknown[] }> {
  const entries = await db().call<unknown[]>(asUser(userId), "get_my_entries");
  expect(entries).toEqual(await old(userId, "get_my_entries"));
  const prizes = await db().call<unknown[]>(asUser(userId), "get_my_prizes");
  expect(prizes).toEqual(await old(userId, "get_my_prizes"));
  return { entries, prizes };
}

describe("the player's competition calls as declared types", () => {
  it("answer the entry quote as the jsonb version did: cap, sold out, a wrong answer, a break, pending and rejected", async () => {
    const buyer = await db().createPlayer({ credits: 20 });
    const asked = await db().createCompetition(admin, {
      ticket_price: 2.5,
      total_tickets: 40,
      max_tickets_per_user: 6,
    });
    const plain = await db().createCompetition(admin, { ticket_price: 0.99, total_tickets: 3, ...NO_QUESTION });

    expect(await sameQuote(buyer, asked)).toMatchObject({ cap_left: 6, block: null, skill_retry_at: null });
    await db().call(asUser(buyer), "enter_competition", { p_competition_id: asked, p_quantity: 2, p_answer: "4" });
    await sameQuote(buyer, asked);
    // A wrong answer closes the question for a while: skill_retry_at is set.
    await db().call(asUser(buyer), "enter_competition", { p_competition_id: asked, p_quantity: 1, p_answer: "5" });
    expect((await sameQuote(buyer, asked)).skill_retry_at).not.toBeNull();

    await sameQuote(buyer, plain);
    await db().call(asUser(buyer), "enter_competition", { p_competition_id: plain, p_quantity: 3 });
    // Sold out: nothing left to price, so both arrays are empty.
    expect(await sameQuote(buyer, plain)).toMatchObject({ tickets_left: 0, costs: [], shortfalls: [] });

    const resting = await db().createPlayer({ credits: 5 });
    await db().call(asUser(resting), "take_break", { p_period: "1 week" });
    expect((await sameQuote(resting, asked)).block).toMatchObject({ code: "on_break" });

    const pending = await db().createUser();
    expect(await sameQuote(pending, asked)).toMatchObject({ approved: false, rejected: false });
    const rejected = await db().createUser();
    await db().sql("update public.user_account_data set rejected_at = now() where id = $1", [rejected]);
    expect(await sameQuote(rejected, asked)).toMatchObject({ approved: false, rejected: true });
  });

  it("answer entries and prizes as the jsonb versions did, from nothing through a prize delivered", async () => {
    const winner = await db().createPlayer({ credits: 30 });
    const other = await db().createPlayer({ credits: 30 });
    expect(await sameEntriesAndPrizes(winner)).toEqual({ entries: [], prizes: [] });

    const live = await db().createCompetition(admin, { ticket_price: 1.25, cash_alternative: 80 });
    await db().call(asUser(winner), "enter_competition", { p_competition_id: live, p_quantity: 2, p_answer: "4" });
    await db().call(asUser(other), "enter_competition", { p_competition_id: live, p_quantity: 1, p_answer: "4" });
    const { drawId } = await db().wonBy(admin, winner, { cash_alternative: 90 });

    const drawn = await sameEntriesAndPrizes(winner);
    expect(drawn.entries).toHaveLength(2);
    expect(drawn.prizes).toMatchObject([{ draw_id: drawId, prize_choice: null, story: null }]);
    await sameEntriesAndPrizes(other);

    await db().call(asUser(winner), "claim_prize", { p_draw_id: drawId, p_choice: "cash" });
    await sameEntriesAndPrizes(winner);
    await db().call(asUser(winner), "set_my_winner_story_consent", { p_draw_id: drawId, p_consent: true });
    await db().call(asUser(admin), "admin_update_prize_fulfilment", { p_draw_id: drawId, p_status: "verified" });
    expect((await sameEntriesAndPrizes(winner)).prizes).toMatchObject([
      { prize_choice: "cash", prize_status: "verified", story: { consent: true, published: false } },
    ]);
    await db().call(asUser(admin), "admin_update_prize_fulfilment", {
      p_draw_id: drawId,
      p_status: "delivered",
      p_proof_of_delivery: "BACS 1234",
    });
    expect((await sameEntriesAndPrizes(winner)).prizes).toMatchObject([{ proof_of_delivery: "BACS 1234" }]);

    // The first competition drawn as well: one of its two entrants won it, and only the winner's entry says so.
    await db().sql(
      `update public.competitions set opens_at = now() - interval '3 days', closes_at = now() - interval '2 days',
              postal_deadline = now() - interval '1 day', draw_at = now() - interval '1 second' where id = $1`,
      [live],
    );
    await db().call(asUser(admin), "run_due_draws");
    const won = (id: string) =>
      sameEntriesAndPrizes(id).then(({ entries }) =>
        (entries as { competition: { id: string }; draw: { won: boolean } | null }[])
          .filter((e) => e.competition.id === live)
          .map((e) => e.draw?.won),
      );
    expect([...(await won(winner)), ...(await won(other))].sort()).toEqual([false, true]);
  });
});

describe("the admin's instant wins to deliver as a declared type", () => {
  it("answers what the jsonb version did: nothing yet, prizes to deliver, one delivered, a postal entrant's", async () => {
    expect(await db().call(asUser(admin), "admin_list_instant_win_fulfilment")).toEqual([]);
    const prizes = async (prizeList: unknown[], fields: Record<string, unknown>) => {
      const id = await db().createCompetition(admin, { ...NO_QUESTION, ...fields }, false);
      await db().call(asUser(admin), "admin_set_instant_win_prizes", { p_competition_id: id, p_prizes: prizeList });
      await db().call(asUser(admin), "admin_publish_competition", { p_id: id });
      return id;
    };
    // Every ticket wins: two prints bought in one purchase, and a postal letter without an account.
    const prints = await prizes([{ kind: "physical", title: "A signed print", quantity: 2 }], { total_tickets: 2 });
    const player = await db().createPlayer({ credits: 10 });
    await db().call(asUser(player), "enter_competition", { p_competition_id: prints, p_quantity: 2 });
    const letters = await prizes([{ kind: "credit", credit_amount: 3, quantity: 2 }], { total_tickets: 2 });
    await db().call(asUser(admin), "admin_record_postal_entry", {
      p_competition_id: letters,
      p_user_id: null,
      p_name: "Omar Farouk",
      p_address: "1 High St, Leeds LS1 1AA",
      p_answer: null,
    });

    // One purchase's wins share their moment, which neither version orders: compare them in id order within it.
    const inOrder = (list: unknown) =>
      (list as { id: string; won_at: string }[]).toSorted(
        (a, b) => Date.parse(b.won_at) - Date.parse(a.won_at) || a.id.localeCompare(b.id),
      );
    const same = async () => {
      const now = await db().call<{ id: string; won_at: string; postal_name: string | null }[]>(
        asUser(admin),
        "admin_list_instant_win_fulfilment",
      );
      expect(now.map((w) => w.won_at)).toEqual(inOrder(now).map((w) => w.won_at));
      expect(inOrder(now)).toEqual(inOrder(await old(admin, "admin_list_instant_win_fulfilment")));
      return now;
    };
    const listed = await same();
    expect(listed.map((w) => w.postal_name).sort()).toEqual(["Omar Farouk", null, null]);
    await db().call(asUser(admin), "admin_mark_instant_win_delivered", { p_id: listed[listed.length - 1].id });
    expect((await same()).filter((w) => (w as { status?: string }).status === "delivered")).toHaveLength(1);
  });
});

describe("get_my_ledger_page as a declared type", () => {
  it("answers every page, filter and total what the jsonb version did, and an empty filter the same", async () => {
    const player = await db().createPlayer({ credits: 40 });
    await db().call(asUser(admin), "admin_adjust_credit", {
      p_user_id: player,
      p_amount: -2.5,
      p_reason: "Correction",
    });
    const competition = await db().createCompetition(admin, { ticket_price: 1.2, ...NO_QUESTION });
    for (const quantity of [1, 3]) {
      await db().call(asUser(player), "enter_competition", { p_competition_id: competition, p_quantity: quantity });
    }
    const thisMonth = new Date().toISOString().slice(0, 8) + "01";
    for (const [kind, month] of [
      [null, null],
      ["entry", null],
      [null, thisMonth],
      ["top_up", "2020-01-01"],
    ] as const) {
      await eachPage<number>(async (before) => {
        const now: { next_before: number | null } = await db().call(asUser(player), "get_my_ledger_page", {
          p_kind: kind,
          p_month: month,
          p_before: before,
          p_limit: 2,
        });
        expect(now).toEqual(await old(player, "get_my_ledger_page", [kind, month, before, 2]));
        return now.next_before;
      });
    }
    const empty = await db().createPlayer();
    expect(await db().call(asUser(empty), "get_my_ledger_page")).toEqual(await old(empty, "get_my_ledger_page"));
  });
});

describe("the public competition calls as declared types", () => {
  it("answer the list, a page and the admin's competition JSON as the jsonb versions did, through a competition's life", async () => {
    const player = await db().createPlayer({ credits: 40 });
    const sameEverywhere = async () => {
      for (const status of [null, "live", "sold_out", "drawn", "cancelled"]) {
        expect(await db().call(anon, "list_competitions", status ? { p_status: status } : {})).toEqual(
          await old(anon, "list_competitions", [status]),
        );
      }
      const competitions = await db().sql<{ id: string; slug: string; status: string }>(
        "select id, slug, status from public.competitions order by created_at",
      );
      for (const c of competitions) {
        for (const caller of [anon, asUser(player), asUser(admin)]) {
          const now = await db().rpc(caller, "get_competition", { p_slug: c.slug });
          const then = await db()
            .oldAnswer(caller, "get_competition", [c.slug])
            .then(
              (value) => ({ data: value, hint: null }),
              (e: { hint?: string }) => ({ data: null, hint: e.hint ?? null }),
            );
          expect({ data: now.error ? null : now.data, hint: now.error?.hint ?? null }).toEqual(then);
        }
        // What every admin competition call answers is built on the same row.
        const [{ json, before }] = await db().sql<{ json: unknown; before: unknown }>(
          "select private.competition_json($1, true) as json, old.competition_json($1, true) as before",
          [c.id],
        );
        expect(json).toEqual(before);
      }
    };

    await db().createCompetition(admin, { title: "A draft", ticket_price: 2 }, false);
    const live = await db().createCompetition(admin, { ticket_price: 0.99, cash_alternative: 50 });
    const tiny = await db().createCompetition(admin, { ticket_price: 1, total_tickets: 3, ...NO_QUESTION });
    await db().call(asUser(player), "enter_competition", { p_competition_id: live, p_quantity: 7, p_answer: "4" });
    await db().call(asUser(player), "enter_competition", { p_competition_id: tiny, p_quantity: 3 });
    await db().call(asUser(admin), "admin_record_postal_entry", {
      p_competition_id: live,
      p_user_id: null,
      p_name: "Lou Letter",
      p_address: "2 Low St, York YO1 1AA",
      p_answer: "4",
    });
    await sameEverywhere();

    const { drawId } = await db().wonBy(admin, player);
    await db().call(asUser(player), "set_my_winner_story_consent", { p_draw_id: drawId, p_consent: true });
    await db().sql("update public.winner_stories set quote = 'Over the moon!' where draw_id = $1", [drawId]);
    const cancelled = await db().createCompetition(admin);
    await db().call(asUser(admin), "admin_cancel_competition", { p_id: cancelled, p_reason: "Supplier fell through" });
    await sameEverywhere();
    const drawn = (await db().call<{ draw: { story: unknown } | null }[]>(anon, "list_competitions", {
      p_status: "drawn",
    })) as { draw: { story: unknown } | null }[];
    expect(drawn[0]?.draw?.story).toMatchObject({ quote: "Over the moon!" });
  });
});
