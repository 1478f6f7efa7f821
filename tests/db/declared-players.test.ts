// The fifth batch of declared shapes (docs/decisions/007): a player's top-up calls
// (quote_top_up, get_top_up_options, get_top_up), notifications (get_my_notifications, get_my_push_settings),
// referrals (get_my_referrals, admin_get_user_referrals, check_referral_code, settle_referrals), an admin's credit
// adjustment and bulk approval, the cron's raise_player_flags and unsubscribe_marketing. Their old bodies (the
// sources before 20261202200001, one helper with them) run here word for word beside the new functions, for the
// same caller in the same transaction (the old one rolled back first, so a call that writes answers from the same
// state and moment), and both answers are compared as JSON.
import { beforeAll, describe, expect, it } from "vitest";
import { asUser, dbPerFile, service, type Caller } from "./support";

const db = dbPerFile();

const OLD_BODIES = `
create schema old;
create function old.quote_top_up(p_amount numeric) returns jsonb
language plpgsql set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  perform private.create_account_rows(uid);
  return private.top_up_quote(uid, p_amount);
end;
$$;

create function old.get_top_up_options() returns jsonb
language plpgsql set search_path = '' as $$
declare
  uid uuid := private.require_user();
  p public.player_protections;
  remaining numeric;
  blocked jsonb;
begin
  perform private.create_account_rows(uid);
  p := private.protections_of(uid);
  remaining := case when p.monthly_limit is null then null
                    else greatest(p.monthly_limit - private.month_topped_up(uid), 0) end;
  blocked := private.play_block(uid);
  if blocked is null and remaining is not null and remaining < (private.setting('top_up_min'))::numeric then
    blocked := jsonb_build_object('code', 'monthly_limit_reached',
      'message', 'You have reached your monthly limit: ' || private.format_gbp(remaining) || ' left this month');
  end if;
  return jsonb_build_object(
    'min', (private.setting('top_up_min'))::numeric,
    'max', (private.setting('top_up_max'))::numeric,
    'quick_picks', '[10, 25, 50, 100, 200]'::jsonb,
    'bonus_enabled', coalesce((private.setting('bonus_enabled'))::boolean, false),
    'bonus_tiers', coalesce((select jsonb_agg(jsonb_build_object('from', (t ->> 'from')::numeric, 'percent', (t ->> 'percent')::numeric)
                                              order by (t ->> 'from')::numeric)
                               from jsonb_array_elements(private.setting('bonus_tiers')) t), '[]'::jsonb),
    'monthly_limit', p.monthly_limit,
    'monthly_remaining', remaining,
    'pending_limit', p.pending_limit,
    'pending_limit_from', p.pending_limit_from,
    'needs_limit_prompt', p.limit_set_at is null and p.limit_prompt_seen_at is null
                          and not exists (select 1 from public.top_ups t where t.user_id = uid and t.credited_at is not null),
    'blocked', blocked);
end;
$$;

create function old.get_top_up(p_id uuid) returns jsonb
language plpgsql set search_path = '' as $$
declare
  uid uuid := private.require_user();
  t public.top_ups%rowtype;
begin
  select * into t from public.top_ups where id = p_id and user_id = uid;
  if not found then
    raise exception 'Top-up not found' using errcode = 'PT404', hint = 'top_up_not_found';
  end if;
  return jsonb_build_object(
    'id', t.id,
    'status', t.status,
    'amount', t.amount,
    'bonus', t.bonus,
    'credit', t.amount + t.bonus,
    'funding', t.funding,
    'provider', t.provider,
    'balance', coalesce((select a.credits from public.user_account_data a where a.id = uid), 0),
    'created_at', t.created_at,
    'credited_at', t.credited_at,
    'refusal_reason', t.refusal_message,
    'refusal_reason_code', case when t.status = 'refused_card_cap' then 'card_cap_exceeded' end,
    'purpose', t.purpose,
    'entry', (select jsonb_build_object(
                'entry_id', e.id,
                'ticket_numbers', to_jsonb(private.entry_ticket_numbers(e.id)),
                'competition_slug', c.slug)
                from public.entries e join public.competitions c on c.id = e.competition_id
               where e.id = t.entry_id),
    'entry_error', case when t.entry_error_code is not null
                        then jsonb_build_object('code', t.entry_error_code, 'message', t.entry_error_message) end);
end;
$$;

create function old.admin_adjust_credit(p_user_id uuid, p_amount numeric, p_reason text) returns jsonb
language plpgsql set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  threshold numeric := coalesce((private.setting('large_adjustment_threshold'))::numeric, 100);
  reason text := trim(p_reason);
  acct public.user_account_data;
  new_balance numeric;
  ledger_id bigint;
begin
  if p_user_id = admin_id then
    raise exception 'You cannot adjust your own credit' using errcode = '42501', hint = 'self_change_refused';
  end if;
  if reason is null or char_length(reason) not between 3 and 500 then
    raise exception 'Give a reason for the adjustment (3 to 500 characters)' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_amount is null or not private.is_pounds(p_amount) or p_amount = 0 or abs(p_amount) > 100000 then
    raise exception 'Enter an amount in pounds and pence, not zero, at most £100,000 either way'
      using errcode = '22023', hint = 'invalid_input';
  end if;
  if abs(p_amount) > threshold and not public.is_super_admin() then
    raise exception 'Access denied: Super admin privileges required' using errcode = '42501', hint = 'super_admin_required',
      detail = 'Adjustments over ' || private.format_gbp(threshold) || ' need a super admin.';
  end if;
  acct := private.admin_user_target(p_user_id, true);
  perform private.refuse_deleted(acct);
  if acct.credits + p_amount < 0 then
    raise exception 'The balance is %: an adjustment can take at most that', private.format_gbp(acct.credits)
      using errcode = 'P0001', hint = 'insufficient_credit';
  end if;
  new_balance := private.post_ledger(p_user_id, 'admin_adjustment', p_amount, reason, 'admin adjustment');
  select max(l.id) into ledger_id from public.credit_ledger l where l.user_id = p_user_id;
  perform private.log_activity('user.credit_adjusted', p_user_id, jsonb_build_object(
    'amount', p_amount, 'reason', reason, 'ledger_id', ledger_id,
    'balance', jsonb_build_object('old', acct.credits, 'new', new_balance)));
  return jsonb_build_object('ledger_id', ledger_id, 'amount', p_amount, 'balance', new_balance);
end;
$$;

create function old.get_my_notifications(p_limit integer default 20, p_before bigint default null) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  if p_limit is null or p_limit not between 1 and 100 then
    raise exception 'Ask for 1 to 100 notifications' using errcode = '22023', hint = 'invalid_input';
  end if;
  return jsonb_build_object(
    'items', coalesce((
      select jsonb_agg(jsonb_build_object('id', n.id, 'kind', n.kind, 'title', n.title, 'body', n.body, 'link', n.link,
                                          'created_at', n.created_at, 'read_at', n.read_at) order by n.id desc)
        from (select * from public.notifications n
               where n.user_id = uid and (p_before is null or n.id < p_before)
               order by n.id desc limit p_limit) n), '[]'::jsonb),
    'unread', (select count(*) from public.notifications n where n.user_id = uid and n.read_at is null));
end;
$$;

create function old.get_my_push_settings() returns jsonb
language sql stable set search_path = '' as $$
  select jsonb_build_object(
    'kinds', coalesce((select to_jsonb(p.kinds) from public.push_preferences p where p.user_id = private.require_user()), '[]'::jsonb),
    'endpoints', coalesce((select jsonb_agg(s.endpoint order by s.id) from public.push_subscriptions s
                            where s.user_id = private.require_user()), '[]'::jsonb))
$$;

create function old.check_referral_code(p_code text, p_email text) returns jsonb
language plpgsql stable set search_path = '' as $$
declare
  checked jsonb;
begin
  perform private.require_server();
  checked := private.referral_check(p_code, p_email);
  case checked #>> '{refusal,code}'
    when 'referral_code_unknown' then
      raise exception '%', checked #>> '{refusal,message}' using errcode = 'P0001', hint = 'referral_code_unknown';
    when 'referral_self' then
      raise exception '%', checked #>> '{refusal,message}' using errcode = 'P0001', hint = 'referral_self';
    else
      null;
  end case;
  return jsonb_build_object('code', checked ->> 'code');
end;
$$;

create function old.referral_json(r public.referrals) returns jsonb
language sql stable set search_path = '' as $$
  select jsonb_build_object(
    'id', r.id, 'status', r.status, 'reason', r.reason, 'reason_text', private.referral_reason_text(r.reason),
    'amount', r.amount, 'created_at', r.created_at, 'decided_at', r.decided_at)
$$;

create function old.settle_referrals() returns jsonb
language plpgsql set search_path = '' as $$
declare
  r record;
  settled integer := 0;
begin
  perform private.require_server();
  for r in select x.referred_id from public.referrals x
            where x.status = 'pending'
              and exists (select 1 from public.entries e where e.user_id = x.referred_id and e.kind = 'paid')
            order by x.created_at limit 500 loop
    perform private.settle_referral(r.referred_id);
    settled := settled + 1;
  end loop;
  return jsonb_build_object('checked', settled);
end;
$$;

create function old.get_my_referrals() returns jsonb
language plpgsql set search_path = '' as $$
declare
  me uuid := private.require_user();
begin
  return jsonb_build_object(
    'code', private.referral_code_of(me),
    'credit', (private.setting('referral_credit') #>> '{}')::numeric,
    'joined', (select count(*) from public.referrals r where r.referrer_id = me),
    'credited', (select count(*) from public.referrals r where r.referrer_id = me and r.status = 'credited'),
    'credited_total', (select coalesce(sum(r.amount), 0) from public.referrals r where r.referrer_id = me and r.status = 'credited'),
    'friends', coalesce((select jsonb_agg(old.referral_json(r) order by r.created_at desc)
                           from (select * from public.referrals x where x.referrer_id = me order by x.created_at desc limit 50) r), '[]'::jsonb),
    'invited', (select old.referral_json(r) from public.referrals r where r.referred_id = me));
end;
$$;

create function old.admin_get_user_referrals(p_user uuid) returns jsonb
language plpgsql stable set search_path = '' as $$
begin
  perform private.require_admin();
  return jsonb_build_object(
    'code', (select c.code from public.referral_codes c where c.user_id = p_user),
    'referred_by', (select old.referral_json(r) || jsonb_build_object('user_id', r.referrer_id, 'name', p.name)
                      from public.referrals r join public.profiles p on p.id = r.referrer_id
                     where r.referred_id = p_user),
    'referred', coalesce((select jsonb_agg(old.referral_json(r) || jsonb_build_object('user_id', r.referred_id, 'name', p.name)
                                           order by r.created_at desc)
                            from public.referrals r join public.profiles p on p.id = r.referred_id
                           where r.referrer_id = p_user), '[]'::jsonb));
end;
$$;

create function old.raise_player_flags() returns jsonb
language plpgsql set search_path = '' as $$
begin
  perform private.require_server();
  return jsonb_build_object('raised', private.raise_player_flags());
end;
$$;

create function old.admin_approve_users(p_user_ids uuid[]) returns jsonb
language plpgsql set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  done jsonb := '[]'::jsonb;
  r record;
begin
  if p_user_ids is null or cardinality(p_user_ids) = 0 then
    raise exception 'Choose at least one account to approve' using errcode = '22023', hint = 'invalid_input';
  end if;
  if cardinality(p_user_ids) > 200 then
    raise exception 'Approve at most 200 accounts at once' using errcode = '22023', hint = 'invalid_input';
  end if;
  -- Only accounts still waiting: one approved or rejected meanwhile is left as it is.
  for r in
    select a.id, p.name
      from public.user_account_data a join public.profiles p on p.id = a.id
     where a.id = any (p_user_ids) and not a.approved and a.rejected_at is null and a.deleted_at is null
     order by a.created_at
       for update of a
  loop
    update public.user_account_data
       set approved = true, approved_at = now(), approved_by = admin_id, updated_at = now()
     where id = r.id;
    perform private.log_activity('user.approved', r.id, jsonb_build_object('bulk', true));
    perform private.queue_mail(r.id, 'account_approved', 'Your LabCash account is approved',
      'Good news: your LabCash account has been approved. You can now add credit and enter competitions.');
    done := done || jsonb_build_object('id', r.id, 'name', r.name);
  end loop;
  return jsonb_build_object('approved', done,
                            'skipped', cardinality(array(select distinct unnest(p_user_ids))) - jsonb_array_length(done));
end;
$$;

create function old.unsubscribe_marketing(p_token text) returns jsonb
language plpgsql set search_path = '' as $$
declare
  t public.marketing_unsubscribe_tokens%rowtype;
begin
  if not private.is_service_role() then
    raise exception 'Access denied: server only' using errcode = '42501', hint = 'server_only';
  end if;
  if p_token is null or p_token !~ '^[0-9a-f]{64}$' then
    raise exception 'This unsubscribe link is not valid' using errcode = '22023', hint = 'unsubscribe_link_invalid';
  end if;
  select * into t from public.marketing_unsubscribe_tokens k
   where k.token_hash = extensions.digest(p_token, 'sha256')
   for update;
  if not found then
    raise exception 'This unsubscribe link is not valid' using errcode = '22023', hint = 'unsubscribe_link_invalid';
  end if;
  if t.used_at is not null then
    raise exception 'This unsubscribe link has already been used' using errcode = 'P0001', hint = 'unsubscribe_link_used';
  end if;
  update public.marketing_unsubscribe_tokens k set used_at = now() where k.token_hash = t.token_hash;
  if coalesce((select p.email_notifications from public.profiles p where p.id = t.user_id), false) then
    perform private.record_marketing_consent(t.user_id, false, 'unsubscribe_link');
  end if;
  perform private.log_activity('marketing.unsubscribed', t.user_id, jsonb_build_object('mail_id', t.mail_id));
  return jsonb_build_object('unsubscribed', true);
end;
$$;
`;

let admin: string;
let competition: string;
beforeAll(async () => {
  await db().pg.exec(OLD_BODIES);
  admin = await db().createUser({ role: "super_admin", approved: true });
  competition = await db().createCompetition(admin, { total_tickets: 1000, max_tickets_per_user: 100 });
});

/** The new answer, after checking the old body answers the same. */
async function same(caller: Caller, fn: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const { now, old } = await db().oldBeside(caller, fn, args);
  expect(now, fn).toEqual(old);
  return now as Record<string, unknown>;
}

const setting = (key: string, value: unknown) =>
  db().sql("update public.app_settings set value = $2 where key = $1", [key, JSON.stringify(value)]);

const topUp = async (player: string, amount: number, funding = "debit", purpose: unknown = null) => {
  const t = await db().call<{ id: string }>(asUser(player), "create_top_up", {
    p_amount: amount,
    p_provider: "test",
    p_purpose: purpose,
  });
  await db().call(service, "confirm_top_up", {
    p_top_up_id: t.id,
    p_payment_id: `pi_${t.id}`,
    p_funding: funding,
    p_amount_paid: amount,
  });
  return t.id;
};

describe("a player's top-up calls as declared types", () => {
  it("answer options, quotes and top-ups what the jsonb versions did, through limits, bonuses, entries and a break", async () => {
    const player = await db().createUser({ approved: true });
    const quotes = async () => {
      for (const amount of [10, 50.5, 0, 0.001, 1, 1_000_000, null])
        await same(asUser(player), "quote_top_up", { p_amount: amount });
    };
    expect(await same(asUser(player), "get_top_up_options")).toMatchObject({ needs_limit_prompt: true, blocked: null });
    await quotes();
    await setting("bonus_enabled", true);
    await quotes();
    await same(asUser(player), "get_top_up_options");

    const paid = await topUp(player, 50);
    expect(await same(asUser(player), "get_top_up", { p_id: paid })).toMatchObject({ status: "credited", entry: null });
    const entered = await topUp(player, 10, "credit", { competition_id: competition, quantity: 2, answer: "4" });
    expect(await same(asUser(player), "get_top_up", { p_id: entered })).toMatchObject({
      entry: { competition_slug: expect.any(String) },
    });
    const wrong = await topUp(player, 10, "debit", { competition_id: competition, quantity: 1, answer: "5" });
    expect(await same(asUser(player), "get_top_up", { p_id: wrong })).toMatchObject({
      entry: null,
      entry_error: { code: expect.any(String) },
    });
    await setting("credit_card_monthly_cap", 15);
    const refused = await topUp(player, 10, "credit");
    expect(await same(asUser(player), "get_top_up", { p_id: refused })).toMatchObject({
      refusal_reason_code: "card_cap_exceeded",
    });
    await setting("bonus_tiers", []);
    await same(asUser(player), "get_top_up_options");

    await db().call(asUser(player), "set_monthly_limit", { p_limit: 100 });
    await db().call(asUser(player), "set_monthly_limit", { p_limit: 200 });
    expect(await same(asUser(player), "get_top_up_options")).toMatchObject({ monthly_limit: 100, pending_limit: 200 });
    await quotes();
    await db().call(asUser(player), "set_monthly_limit", { p_limit: 72 });
    expect(await same(asUser(player), "get_top_up_options")).toMatchObject({
      blocked: { code: "monthly_limit_reached" },
    });
    await db().call(asUser(player), "take_break", { p_period: "1 week" });
    expect(await same(asUser(player), "get_top_up_options")).toMatchObject({ blocked: { code: "on_break" } });
    await quotes();
  });
});

describe("notifications as declared types", () => {
  it("answer pages and push settings what the jsonb versions did, with none, read and unread, and two browsers", async () => {
    const player = await db().createUser({ approved: false });
    await same(asUser(player), "get_my_notifications", { p_limit: 20, p_before: null });
    expect(await same(asUser(player), "get_my_push_settings")).toEqual({ kinds: [], endpoints: [] });
    await db().call(asUser(admin), "admin_approve_user", { p_user_id: player });
    await topUp(player, 10);
    await topUp(player, 20);
    const page = await same(asUser(player), "get_my_notifications", { p_limit: 20, p_before: null });
    const items = page.items as { id: number }[];
    expect(items.length).toBeGreaterThanOrEqual(3);
    await db().call(asUser(player), "mark_notification_read", { p_id: items[1].id });
    await same(asUser(player), "get_my_notifications", { p_limit: 20, p_before: null });
    await same(asUser(player), "get_my_notifications", { p_limit: 2, p_before: null });
    await same(asUser(player), "get_my_notifications", { p_limit: 2, p_before: items[1].id });
    await same(asUser(player), "get_my_notifications", { p_limit: 2, p_before: items.at(-1)!.id });

    await db().call(asUser(player), "set_my_push_kinds", { p_kinds: ["draw_won", "credit"] });
    const key = "B".repeat(87) + "=";
    for (const n of [1, 2])
      await db().call(asUser(player), "save_push_subscription", {
        p_endpoint: `https://fcm.googleapis.com/fcm/send/${n}`,
        p_p256dh: key,
        p_auth: "A".repeat(22),
      });
    expect(await same(asUser(player), "get_my_push_settings")).toEqual({
      kinds: ["draw_won", "credit"],
      endpoints: ["https://fcm.googleapis.com/fcm/send/1", "https://fcm.googleapis.com/fcm/send/2"],
    });
  });
});

describe("referrals as declared types", () => {
  it("answer the inviter's, the friends' and the admin's views what the jsonb versions did, pending, credited and refused", async () => {
    const email = "ina.inviter@labcash.test";
    const inviter = await db().createUser({ email, approved: true, credits: 10 });
    await same(asUser(admin), "admin_get_user_referrals", { p_user: inviter });
    // The code is made on the first call: made here, so both versions read it.
    const { code } = await db().call<{ code: string }>(asUser(inviter), "get_my_referrals");
    await same(asUser(inviter), "get_my_referrals");
    await same(asUser(admin), "admin_get_user_referrals", { p_user: inviter });
    expect(
      await same(service, "check_referral_code", { p_code: ` ${code.toLowerCase()} `, p_email: "x@y.test" }),
    ).toEqual({ code });
    const friend = (n: number, name: string) =>
      db().createUser({
        email: `friend${n}@labcash.test`,
        meta: { name, date_of_birth: "1990-01-01", referral_code: code },
      });
    const pending = await friend(1, "Pat Pending");
    const credited = await friend(2, "Cal Credited");
    const self = await db().createUser({
      email: "ina.inviter+me@labcash.test",
      meta: { name: "Ina Again", date_of_birth: "1990-01-01", referral_code: code },
    });
    await db().call(asUser(admin), "admin_approve_user", { p_user_id: credited });
    await db().call(service, "add_credits", { user_id: credited, amount: 10, transaction_amount: 10 });
    await db().call(asUser(credited), "enter_competition", {
      p_competition_id: competition,
      p_quantity: 1,
      p_answer: "4",
    });
    expect(await same(asUser(inviter), "get_my_referrals")).toMatchObject({ joined: 3, credited: 1 });
    for (const id of [inviter, pending, credited, self]) {
      await same(asUser(admin), "admin_get_user_referrals", { p_user: id });
      if (id === inviter) continue;
      await db().call(asUser(id), "get_my_referrals");
      await same(asUser(id), "get_my_referrals");
    }
    expect(await same(service, "settle_referrals")).toEqual({ checked: 0 });
    // A referral an entry left pending (the inviter's account was busy then) is the cron's to settle.
    await db().call(asUser(admin), "admin_approve_user", { p_user_id: pending });
    await db().call(service, "add_credits", { user_id: pending, amount: 10, transaction_amount: 10 });
    await db().sql("alter table public.entries disable trigger entries_settle_referral");
    await db().call(asUser(pending), "enter_competition", {
      p_competition_id: competition,
      p_quantity: 1,
      p_answer: "4",
    });
    await db().sql("alter table public.entries enable trigger entries_settle_referral");
    expect(await same(service, "settle_referrals")).toEqual({ checked: 1 });
  });
});

describe("an admin's credit adjustment, a bulk approval, the cron's flags and an unsubscribe as declared types", () => {
  it("answer what the jsonb versions did", async () => {
    const player = await db().createUser({ approved: true, credits: 10 });
    expect(
      await same(asUser(admin), "admin_adjust_credit", { p_user_id: player, p_amount: 5.5, p_reason: "Goodwill" }),
    ).toMatchObject({ amount: 5.5 });
    await db().call(asUser(admin), "admin_adjust_credit", { p_user_id: player, p_amount: 5.5, p_reason: "Goodwill" });
    await same(asUser(admin), "admin_adjust_credit", { p_user_id: player, p_amount: -21, p_reason: "Taken back" });

    const waiting = [await db().createUser({ name: "Wes Waiting" }), await db().createUser({ name: "Val Waiting" })];
    const unknown = "00000000-0000-4000-8000-000000000000";
    const ids = [...waiting, waiting[0], player, unknown];
    expect(await same(asUser(admin), "admin_approve_users", { p_user_ids: ids })).toMatchObject({ skipped: 2 });
    expect(await same(asUser(admin), "admin_approve_users", { p_user_ids: [player] })).toEqual({
      approved: [],
      skipped: 1,
    });

    expect(await same(service, "raise_player_flags")).toEqual({ raised: 0 });
    await db().call(asUser(player), "set_monthly_limit", { p_limit: 10 });
    await topUp(player, 10);
    expect(await same(service, "raise_player_flags")).toEqual({ raised: 1 });

    const [{ token }] = await db().sql<{ token: string }>("select private.new_unsubscribe_token($1) as token", [
      player,
    ]);
    expect(await same(service, "unsubscribe_marketing", { p_token: token })).toEqual({ unsubscribed: true });
  });
});
