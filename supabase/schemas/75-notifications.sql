-- ============================================================================
-- Notifications: each player's notification centre, web push subscriptions and their queue, the ticket check.
-- The live definition of this area: change it here, then `npm run db:migration -- <name>`
-- writes the migration (README "Changing the database"). Loaded after the files before it.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Functions the tables use
-- ----------------------------------------------------------------------------

-- Web push goes only to the browsers' own push services (Chrome and most others through FCM, Firefox through
-- Mozilla's autopush, Safari through Apple, Edge through Windows' WNS), over https on the default port, with a
-- path of URL characters only: a subscription can never make the sender fetch something on our own network
-- or elsewhere. The sender (lib/push/deliver.ts) checks the same list again and where the name resolves.
create or replace function private.is_push_service_endpoint(p_endpoint text) returns boolean
language sql immutable set search_path = '' as $$
  select char_length(p_endpoint) <= 2000
     and p_endpoint ~ ('^https://(fcm\.googleapis\.com|updates\.push\.services\.mozilla\.com'
                       || '|([a-z0-9-]+\.)+push\.apple\.com|([a-z0-9-]+\.)+notify\.windows\.com)'
                       || '/[A-Za-z0-9._~:/?#!$&*+,;=%-]*$')
$$;
comment on function private.is_push_service_endpoint(text) is 'Whether an endpoint is an https URL on a browser push service (FCM, Mozilla, Apple, Windows) with a plain path.';

-- draw_lost is the one kind that is not a service message: "you did not win" invites another go, so it
-- is never pushed to a player on a break, self-excluded or closed (code of practice 1.5, 1.11). The
-- rest concern money, a prize, the account or a complaint the player is owed word of; sign_up goes to
-- admins only: someone new is waiting for their approval.
create or replace function private.notification_kinds() returns text[]
language sql immutable set search_path = '' as $$
  select array['draw_won', 'draw_lost', 'credit', 'approval', 'complaint', 'prize', 'sign_up']
$$;
comment on function private.notification_kinds() is 'Every notification kind, in the order the preferences list them.';
revoke all on function private.notification_kinds() from public, anon, authenticated, service_role;

-- ----------------------------------------------------------------------------
-- Tables, each with its indexes, triggers and policies
-- ----------------------------------------------------------------------------

create table public.notifications (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  kind text not null check (kind = any (private.notification_kinds())),
  -- What the event was (draw:<id>, ledger:<id>, complaint:<id>:<status>…): a retried or replayed event
  -- writes nothing twice.
  ref text not null,
  title text not null,
  body text not null,
  link text not null check (link ~ '^/'),
  created_at timestamptz not null default now(),
  read_at timestamptz,
  -- Waiting for the cron's push delivery: set by the writers when the player then wanted this kind pushed
  -- (private.push_wanted), cleared when claimed (sent or not).
  push_pending boolean not null default false,
  unique (user_id, kind, ref)
);
alter table public.notifications enable row level security;
comment on table public.notifications is 'The in-site notification centre: one row per player and event, written by triggers in the event''s transaction; read and marked by the player through functions.';
revoke all on table public.notifications from public, anon, authenticated, service_role;
grant select on table public.notifications to authenticated;
grant all on table public.notifications to service_role;

create index notifications_user_idx on public.notifications (user_id, id DESC);
create index notifications_unread_idx on public.notifications (user_id) where (read_at IS NULL);
create index notifications_push_idx on public.notifications (id) where push_pending;
create policy "notifications: own rows" on public.notifications
  as permissive for select to authenticated
  using ((user_id = ( SELECT auth.uid() AS uid)));

create table public.push_subscriptions (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  endpoint text not null unique check (private.is_push_service_endpoint(endpoint)),
  p256dh text not null,
  auth text not null,
  created_at timestamptz not null default now()
);
alter table public.push_subscriptions enable row level security;
comment on table public.push_subscriptions is 'Web Push subscriptions (RFC 8030 endpoint on a browser push service, RFC 8291 keys), one per browser endpoint, at most 10 per player; a browser signed in as someone else takes the row over.';
revoke all on table public.push_subscriptions from public, anon, authenticated, service_role;
grant select on table public.push_subscriptions to authenticated;
grant all on table public.push_subscriptions to service_role;

create index push_subscriptions_user_idx on public.push_subscriptions (user_id);
create policy "push subscriptions: own rows" on public.push_subscriptions
  as permissive for select to authenticated
  using ((user_id = ( SELECT auth.uid() AS uid)));

create table public.push_preferences (
  user_id uuid primary key references auth.users (id) on delete cascade,
  kinds text[] not null default '{}' check (kinds <@ private.notification_kinds()),
  updated_at timestamptz not null default now()
);
alter table public.push_preferences enable row level security;
comment on table public.push_preferences is 'The notification kinds a player opted in to receive as web push; none unless chosen.';
revoke all on table public.push_preferences from public, anon, authenticated, service_role;
grant select on table public.push_preferences to authenticated;
grant all on table public.push_preferences to service_role;

create policy "push preferences: own row" on public.push_preferences
  as permissive for select to authenticated
  using ((user_id = ( SELECT auth.uid() AS uid)));

-- ----------------------------------------------------------------------------
-- Functions
-- ----------------------------------------------------------------------------

create or replace function private.is_service_notification(p_kind text) returns boolean
language sql immutable set search_path = '' as $$
  select p_kind <> 'draw_lost'
$$;
comment on function private.is_service_notification(text) is 'Whether a kind is a service message (pushed even during a break or exclusion): every kind but draw_lost.';
revoke all on function private.is_service_notification(text) from public, anon, authenticated, service_role;

-- Decided when the event happens, not when the cron sends: a player who opts in to a kind, or turns push on
-- in a browser, later is not sent that kind's older news.
create or replace function private.push_wanted(p_user uuid, p_kind text) returns boolean
language sql stable set search_path = '' as $$
  select exists (select 1 from public.push_preferences pp join public.push_subscriptions s on s.user_id = pp.user_id
                  where pp.user_id = p_user and p_kind = any (pp.kinds))
$$;
comment on function private.push_wanted(uuid,text) is 'Whether a notification of this kind for this player waits for push: they chose the kind and have a browser subscribed.';
revoke all on function private.push_wanted(uuid,text) from public, anon, authenticated, service_role;

create or replace function private.notify(p_user uuid, p_kind text, p_ref text, p_title text, p_body text, p_link text) returns void
language sql security definer set search_path = '' as $$
  insert into public.notifications (user_id, kind, ref, title, body, link, push_pending)
  values (p_user, p_kind, p_ref, p_title, p_body, p_link, private.push_wanted(p_user, p_kind))
  on conflict (user_id, kind, ref) do nothing
$$;
comment on function private.notify(uuid,text,text,text,text,text) is 'Writes one notification, once per player, kind and event reference.';
revoke all on function private.notify(uuid,text,text,text,text,text) from public, anon, authenticated, service_role;

-- A draw: every account holding a ticket hears the result in one insert (10,000 entrants: npm run
-- bench:notifications). A competition has one draws row per prize position (unique), so this runs once per prize
-- however often the cron retries; the notifications' unique key is the second guard.
create or replace function private.notify_draw() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
begin
  select * into c from public.competitions where id = new.competition_id;
  -- Each prize tells its winner. The first prize's row, recorded after every other prize's (draw_competition), also
  -- tells each ticket holder who won nothing, once.
  insert into public.notifications (user_id, kind, ref, title, body, link, push_pending)
  select h.user_id,
         h.kind,
         'draw:' || new.id,
         case when h.kind = 'draw_won' then 'You won: ' || c.title else 'Draw result: ' || c.title end,
         case when h.kind = 'draw_won' and new.prize_position = 1 and h.prizes = 1
              then format('Your ticket #%s won. Claim your prize on My prizes.', new.winning_number)
              when h.kind = 'draw_won'
              then format('Your ticket #%s won the %s prize. Claim it on My prizes.', new.winning_number,
                          private.ordinal(new.prize_position))
              when h.prizes = 1
              then format('Ticket #%s won; none of your tickets did this time.', new.winning_number)
              else format('Ticket #%s won the first prize; none of your tickets won a prize this time.',
                          new.winning_number) end,
         '/winners/' || new.id,
         private.push_wanted(h.user_id, h.kind)
    from (select u.user_id,
                 case when u.user_id = new.winner_user_id then 'draw_won' else 'draw_lost' end as kind,
                 (select count(*) from public.draws x where x.competition_id = new.competition_id) as prizes
            -- Only the first prize reads every holder (one pass over the tickets); a later prize tells its winner.
            from (select distinct t.user_id from public.tickets t
                   where new.prize_position = 1 and t.competition_id = new.competition_id and t.user_id is not null
                  union
                  select new.winner_user_id where new.winner_user_id is not null) u
           where u.user_id = new.winner_user_id
              or not exists (select 1 from public.draws x
                              where x.competition_id = new.competition_id and x.winner_user_id = u.user_id)) h
  on conflict (user_id, kind, ref) do nothing;
  return null;
end;
$$;
comment on function private.notify_draw() is 'After a prize''s draw is recorded: draw_won to its winner; with the first prize (recorded last), draw_lost to every other account holding a ticket that won nothing; each links the verification page.';
revoke all on function private.notify_draw() from public, anon, authenticated, service_role;

create or replace function private.notify_prize() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.winner_user_id is not null then
    perform private.notify(new.winner_user_id, 'prize', 'draw:' || new.id || ':' || new.prize_status,
      'Prize update: ' || private.won_prize_title(new.id),
      case new.prize_status
        when 'verified' then 'Your claim is verified; your prize is on its way.'
        else 'Your prize has been delivered.' end,
      '/account/prizes');
  end if;
  return null;
end;
$$;
comment on function private.notify_prize() is 'When a prize is verified or delivered: a prize notification to the winner (their own claim is not news to them).';
revoke all on function private.notify_prize() from public, anon, authenticated, service_role;

create or replace function private.notify_credit() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform private.notify(new.user_id, 'credit', 'ledger:' || new.id,
    case new.kind when 'top_up' then 'Top-up credited' else 'Refund credited' end,
    format('%s added to your credit; your balance is %s.', private.format_gbp(new.amount), private.format_gbp(new.balance_after)),
    '/account/credits');
  return null;
end;
$$;
comment on function private.notify_credit() is 'A top-up or refund row in the ledger: a credit notification to its owner.';
revoke all on function private.notify_credit() from public, anon, authenticated, service_role;

create or replace function private.notify_approval() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.approved and not old.approved then
    perform private.notify(new.id, 'approval', 'approved:' || coalesce(new.approved_at, now()),
      'You''re approved', 'Your account is approved: you can top up and enter competitions.',
      coalesce(new.return_path, '/account'));
  elsif new.rejected_at is not null and old.rejected_at is distinct from new.rejected_at then
    perform private.notify(new.id, 'approval', 'rejected:' || new.rejected_at,
      'Your account was not approved', coalesce(new.rejection_reason, 'Your account was not approved.'), '/account');
  end if;
  return null;
end;
$$;
comment on function private.notify_approval() is 'An account approved or rejected: an approval notification to its owner, an approval linking the page they came from (return_path, else the dashboard).';
revoke all on function private.notify_approval() from public, anon, authenticated, service_role;

-- Decided here, in the sign-up's own transaction, because sign-ups also come straight to the public auth
-- server: every admin hears at once, whichever way the account was made. Only an account that waits for a
-- person (approval_mode manual) is news; the player's name is in the message, their e-mail is not (it may
-- be pushed to a lock screen).
create or replace function private.notify_admins_of_sign_up(p_user uuid) returns void
language sql security definer set search_path = '' as $$
  insert into public.notifications (user_id, kind, ref, title, body, link, push_pending)
  select admin.id, 'sign_up', 'sign_up:' || p_user,
         'New sign-up: ' || p.name,
         p.name || ' signed up and is waiting for approval.',
         '/admin/approvals',
         private.push_wanted(admin.id, 'sign_up')
    from public.profiles p
    join public.user_account_data waiting on waiting.id = p.id
         and not waiting.approved and waiting.rejected_at is null
    cross join public.user_account_data admin
   where p.id = p_user and admin.role in ('admin', 'super_admin') and admin.id <> p_user
  on conflict (user_id, kind, ref) do nothing
$$;
comment on function private.notify_admins_of_sign_up(uuid) is 'A new account waiting for approval: a sign_up notification (and push, if chosen) to every admin and super admin, linking the approvals queue.';
revoke all on function private.notify_admins_of_sign_up(uuid) from public, anon, authenticated, service_role;

-- The optional e-mail to admins (setting sign_up_digest, off unless chosen): the accounts waiting for approval,
-- oldest first, once a UK day, queued by the scheduled job at its first run from 08:00 UK time and only when
-- someone is waiting. Each sign-up is in the notification centre at once; this is for the admin who reads mail.
create or replace function private.queue_sign_up_digests_at(p_now timestamptz) returns integer
language plpgsql security definer set search_path = '' as $$
declare
  uk_now timestamp := p_now at time zone 'Europe/London';
  waiting integer;
  listing text;
  body text;
  queued integer;
begin
  if private.setting('sign_up_digest') is distinct from 'true'::jsonb or uk_now::time < time '08:00' then
    return 0;
  end if;
  -- Two runs of the job at once must not both find today's digest unsent.
  perform pg_advisory_xact_lock(hashtext('sign_up_digest'));
  select count(*),
         string_agg(format('- %s, signed up %s', w.name, to_char(w.created_at at time zone 'Europe/London', 'DD Mon YYYY HH24:MI')),
                    E'\n' order by w.created_at) filter (where w.place <= 50)
    into waiting, listing
    from (select p.name, a.created_at, row_number() over (order by a.created_at) as place
            from public.user_account_data a join public.profiles p on p.id = a.id
           where not a.approved and a.rejected_at is null) w;
  if waiting = 0 then
    return 0;
  end if;
  body := format(E'Accounts waiting for approval, oldest first (UK time):\n\n%s%s\n\nApprove or reject them at %s\n\nYou get this e-mail because the sign-up digest is on in the settings.',
                 listing,
                 case when waiting > 50 then format(E'\n- and %s more', waiting - 50) else '' end,
                 coalesce(private.setting('site_url') #>> '{}', 'http://localhost:3000') || '/admin/approvals');
  insert into public.mail_outbox (to_email, to_user, kind, subject, body_text)
  select u.email, u.id, 'sign_up_digest',
         case when waiting = 1 then '1 account is waiting for approval' else waiting || ' accounts are waiting for approval' end,
         body
    from public.user_account_data admin
    join auth.users u on u.id = admin.id
   where admin.role in ('admin', 'super_admin') and u.email is not null
     and not exists (select 1 from public.mail_outbox m
                      where m.to_user = admin.id and m.kind = 'sign_up_digest'
                        and (m.created_at at time zone 'Europe/London')::date = uk_now::date);
  get diagnostics queued = row_count;
  return queued;
end;
$$;
comment on function private.queue_sign_up_digests_at(timestamptz) is 'When the sign_up_digest setting is on, from 08:00 UK time at p_now, once a UK day, queues to every admin an e-mail listing the accounts waiting for approval (none when nobody waits). Returns how many were queued.';
revoke all on function private.queue_sign_up_digests_at(timestamptz) from public, anon, authenticated, service_role;

create or replace function public.queue_sign_up_digests() returns integer
language plpgsql security definer set search_path = '' as $$
begin
  perform private.require_server();
  return private.queue_sign_up_digests_at(now());
end;
$$;
comment on function public.queue_sign_up_digests() is 'Server (the scheduled job, each run): the sign-up digest to every admin when it is due now (private.queue_sign_up_digests_at). Returns how many were queued.';
revoke all on function public.queue_sign_up_digests() from public, anon, authenticated, service_role;
grant execute on function public.queue_sign_up_digests() to service_role;

create or replace function private.notify_complaint() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.user_id is not null then
    perform private.notify(new.user_id, 'complaint', 'complaint:' || new.id || ':' || new.status,
      case new.status when 'resolved' then 'Complaint ' || new.reference || ' answered'
                      else 'Complaint ' || new.reference || ' acknowledged' end,
      case new.status when 'resolved' then 'Our final answer to your complaint is ready.'
                      else 'We are looking into your complaint.' end,
      '/account/complaints');
  end if;
  return null;
end;
$$;
comment on function private.notify_complaint() is 'A complaint acknowledged or answered: a complaint notification to the complainant.';
revoke all on function private.notify_complaint() from public, anon, authenticated, service_role;

create type public.notification as (id bigint, kind text, title text, body text, link text, created_at timestamp with time zone, read_at timestamp with time zone);
comment on type public.notification is 'One notification as the notification centre shows it.';

create type public.notification_page as (items public.notification[], unread bigint);
comment on type public.notification_page is 'A page of the caller''s notifications, newest first, and how many are unread.';

create or replace function public.get_my_notifications(p_limit integer default 20, p_before bigint default null) returns public.notification_page
language plpgsql stable security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  if p_limit is null or p_limit not between 1 and 100 then
    raise exception 'Ask for 1 to 100 notifications' using errcode = '22023', hint = 'invalid_input';
  end if;
  return row(
    coalesce((
      select array_agg(row(n.id, n.kind, n.title, n.body, n.link, n.created_at, n.read_at)::public.notification
                       order by n.id desc)
        from (select * from public.notifications n
               where n.user_id = uid and (p_before is null or n.id < p_before)
               order by n.id desc limit p_limit) n), '{}'),
    (select count(*) from public.notifications n where n.user_id = uid and n.read_at is null))::public.notification_page;
end;
$$;
comment on function public.get_my_notifications(integer,bigint) is 'The caller''s notifications, newest first (keyset: ids below p_before), and their unread count.';
revoke all on function public.get_my_notifications(integer,bigint) from public, anon, authenticated, service_role;
grant execute on function public.get_my_notifications(integer,bigint) to authenticated;
grant execute on function public.get_my_notifications(integer,bigint) to service_role;

create or replace function public.get_my_unread_count() returns integer
language sql stable security definer set search_path = '' as $$
  select count(*)::integer from public.notifications n where n.user_id = private.require_user() and n.read_at is null
$$;
comment on function public.get_my_unread_count() is 'How many of the caller''s notifications are unread (the header''s bell).';
revoke all on function public.get_my_unread_count() from public, anon, authenticated, service_role;
grant execute on function public.get_my_unread_count() to authenticated;
grant execute on function public.get_my_unread_count() to service_role;

create or replace function public.mark_notification_read(p_id bigint) returns void
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  update public.notifications n set read_at = coalesce(n.read_at, now()) where n.id = p_id and n.user_id = uid;
  if not found then
    -- Another player's notification is not found either: nothing says it exists.
    raise exception 'Notification not found' using errcode = 'PT404', hint = 'notification_not_found';
  end if;
end;
$$;
comment on function public.mark_notification_read(bigint) is 'Marks one of the caller''s own notifications read; any other id is notification_not_found.';
revoke all on function public.mark_notification_read(bigint) from public, anon, authenticated, service_role;
grant execute on function public.mark_notification_read(bigint) to authenticated;
grant execute on function public.mark_notification_read(bigint) to service_role;

create or replace function public.mark_all_notifications_read() returns integer
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  marked integer;
begin
  update public.notifications n set read_at = now() where n.user_id = uid and n.read_at is null;
  get diagnostics marked = row_count;
  return marked;
end;
$$;
comment on function public.mark_all_notifications_read() is 'Marks every unread notification of the caller read; answers how many.';
revoke all on function public.mark_all_notifications_read() from public, anon, authenticated, service_role;
grant execute on function public.mark_all_notifications_read() to authenticated;
grant execute on function public.mark_all_notifications_read() to service_role;

create type public.push_settings as (kinds text[], endpoints text[]);
comment on type public.push_settings is 'The notification kinds the caller has pushed and the endpoints of their subscribed browsers.';

create or replace function public.get_my_push_settings() returns public.push_settings
language sql stable security definer set search_path = '' as $$
  select row(
    coalesce((select p.kinds from public.push_preferences p where p.user_id = private.require_user()), '{}'),
    coalesce((select array_agg(s.endpoint order by s.id) from public.push_subscriptions s
               where s.user_id = private.require_user()), '{}'))::public.push_settings
$$;
comment on function public.get_my_push_settings() is 'The kinds the caller opted in to for push and the endpoints of their subscribed browsers.';
revoke all on function public.get_my_push_settings() from public, anon, authenticated, service_role;
grant execute on function public.get_my_push_settings() to authenticated;
grant execute on function public.get_my_push_settings() to service_role;

create or replace function public.set_my_push_kinds(p_kinds text[]) returns void
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  if p_kinds is null or not (p_kinds <@ private.notification_kinds()) then
    raise exception 'Unknown notification kind' using errcode = '22023', hint = 'invalid_input';
  end if;
  insert into public.push_preferences (user_id, kinds) values (uid, p_kinds)
  on conflict (user_id) do update set kinds = excluded.kinds, updated_at = now();
end;
$$;
comment on function public.set_my_push_kinds(text[]) is 'Sets the notification kinds the caller wants pushed (only known kinds).';
revoke all on function public.set_my_push_kinds(text[]) from public, anon, authenticated, service_role;
grant execute on function public.set_my_push_kinds(text[]) to authenticated;
grant execute on function public.set_my_push_kinds(text[]) to service_role;

create or replace function public.save_push_subscription(p_endpoint text, p_p256dh text, p_auth text) returns void
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  -- The server's zod schema checks the same; this is the last word.
  if p_endpoint is null or not private.is_push_service_endpoint(p_endpoint) then
    raise exception 'Push works only through your browser''s own push service' using errcode = '22023',
      hint = 'invalid_input', detail = 'endpoint';
  end if;
  if p_p256dh is null or p_p256dh !~ '^[A-Za-z0-9_-]{86,88}={0,2}$'
     or p_auth is null or p_auth !~ '^[A-Za-z0-9_-]{22}={0,2}$' then
    raise exception 'That push subscription is not valid' using errcode = '22023', hint = 'invalid_input';
  end if;
  -- One player's saves one at a time, so two at once cannot both find room and leave 11.
  perform pg_advisory_xact_lock(hashtextextended('push-subscriptions:' || uid::text, 0));
  insert into public.push_subscriptions (user_id, endpoint, p256dh, auth) values (uid, p_endpoint, p_p256dh, p_auth)
  on conflict (endpoint) do update set user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth,
                                       created_at = now();
  -- At most 10 browsers per player: the 11th replaces the one saved longest ago. A browser that forgot its
  -- subscription (data cleared, reinstalled) never says so, and the player cannot see those rows to remove them,
  -- so refusing the 11th would lock push off for good; the oldest is the likeliest to be such a ghost.
  delete from public.push_subscriptions s
   where s.user_id = uid
     and s.id not in (select k.id from public.push_subscriptions k where k.user_id = uid
                       order by k.created_at desc, k.id desc limit 10);
end;
$$;
comment on function public.save_push_subscription(text,text,text) is 'Stores this browser''s push subscription for the caller: an endpoint on a browser push service only; one row per endpoint (a browser signed in as someone else is taken over); at most 10 per player, the oldest replaced.';
revoke all on function public.save_push_subscription(text,text,text) from public, anon, authenticated, service_role;
grant execute on function public.save_push_subscription(text,text,text) to authenticated;
grant execute on function public.save_push_subscription(text,text,text) to service_role;

create or replace function public.delete_push_subscription(p_endpoint text) returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  -- First, whatever the endpoint: a caller who may not act (signed out, or owing the second step) is refused.
  me uuid := private.require_user();
begin
  delete from public.push_subscriptions s where s.endpoint = p_endpoint and s.user_id = me;
  return found;
end;
$$;
comment on function public.delete_push_subscription(text) is 'Removes one of the caller''s own push subscriptions; false when they have none at that endpoint.';
revoke all on function public.delete_push_subscription(text) from public, anon, authenticated, service_role;
grant execute on function public.delete_push_subscription(text) to authenticated;
grant execute on function public.delete_push_subscription(text) to service_role;

create or replace function public.claim_push_batch(p_limit integer default 100)
returns table (notification_id bigint, endpoint text, p256dh text, auth text, title text, body text, link text)
language plpgsql security definer set search_path = '' as $$
begin
  return query
  with claimed as (
    update public.notifications n set push_pending = false
     where n.id in (select p.id from public.notifications p where p.push_pending order by p.id
                     limit greatest(p_limit, 1) for update skip locked)
    returning n.id, n.user_id, n.kind, n.title, n.body, n.link, n.created_at
  )
  select c.id, s.endpoint, s.p256dh, s.auth, c.title, c.body, c.link
    from claimed c
    join public.push_preferences pp on pp.user_id = c.user_id and c.kind = any (pp.kinds)
    join public.push_subscriptions s on s.user_id = c.user_id
   -- A day, the TTL lib/push/deliver.ts gives the push services: after a stall (push off for a while, the cron
   -- down) what waited is old news, claimed and dropped; the centre keeps it.
   where c.created_at > now() - interval '1 day'
     and (private.is_service_notification(c.kind)
          or private.protection_state(private.protections_of(c.user_id)) not in ('break', 'self_exclusion', 'closed'))
   order by c.id, s.id;
end;
$$;
comment on function public.claim_push_batch(integer) is 'Server only: takes up to p_limit notifications waiting for push (each once) and answers one row per subscribed browser of a player who opted in to the kind, for notifications under a day old; draw_lost is held back while a player is on a break, self-excluded or closed.';
revoke all on function public.claim_push_batch(integer) from public, anon, authenticated, service_role;
grant execute on function public.claim_push_batch(integer) to service_role;

create or replace function public.remove_push_subscription(p_endpoint text) returns void
language sql security definer set search_path = '' as $$
  delete from public.push_subscriptions where endpoint = p_endpoint
$$;
comment on function public.remove_push_subscription(text) is 'Server only: drops a subscription the push service answered 404 or 410 for (it no longer exists).';
revoke all on function public.remove_push_subscription(text) from public, anon, authenticated, service_role;
grant execute on function public.remove_push_subscription(text) to service_role;

create or replace function public.check_ticket(p_slug text, p_number integer) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
  d public.draws%rowtype;
begin
  select * into c from public.competitions where slug = lower(btrim(p_slug));
  if not found or c.status = 'draft' then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  if p_number is null or not exists (select 1 from public.tickets t where t.competition_id = c.id and t.number = p_number) then
    return jsonb_build_object('result', 'no_such_ticket', 'number', p_number, 'title', c.title);
  end if;
  -- The prize this ticket won, or else the first prize.
  select * into d from public.draws x where x.competition_id = c.id
   order by x.winning_number = p_number desc, x.prize_position limit 1;
  if not found then
    return jsonb_build_object('result', 'not_drawn', 'number', p_number, 'title', c.title, 'draw_at', c.draw_at);
  end if;
  return jsonb_build_object('result', case when d.winning_number = p_number then 'won' else 'not_won' end,
                            'number', p_number, 'title', c.title, 'draw_id', d.id, 'winning_number', d.winning_number,
                            'prize_position', d.prize_position, 'prize_description', d.prize_description,
                            'prizes', (select count(*) from public.draws x where x.competition_id = c.id));
end;
$$;
comment on function public.check_ticket(text,integer) is 'Public "Did I win?": for a published competition''s ticket number, won, not_won, not_drawn or no_such_ticket (with the draw id to verify and, once drawn, the prize it won or the first prize, and how many prizes there were); never who holds the ticket.';
revoke all on function public.check_ticket(text,integer) from public, anon, authenticated, service_role;
grant execute on function public.check_ticket(text,integer) to anon;
grant execute on function public.check_ticket(text,integer) to authenticated;
grant execute on function public.check_ticket(text,integer) to service_role;

-- ----------------------------------------------------------------------------
-- Triggers and policies on tables made elsewhere
-- ----------------------------------------------------------------------------

CREATE TRIGGER user_account_data_notify AFTER UPDATE OF approved, rejected_at ON public.user_account_data FOR EACH ROW EXECUTE FUNCTION private.notify_approval();
CREATE TRIGGER credit_ledger_notify AFTER INSERT ON public.credit_ledger FOR EACH ROW WHEN ((new.kind = ANY (ARRAY['top_up'::public.ledger_kind, 'refund'::public.ledger_kind]))) EXECUTE FUNCTION private.notify_credit();
CREATE TRIGGER complaints_notify AFTER UPDATE OF status ON public.complaints FOR EACH ROW WHEN (((new.status IS DISTINCT FROM old.status) AND (new.status = ANY (ARRAY['acknowledged'::public.complaint_status, 'resolved'::public.complaint_status])))) EXECUTE FUNCTION private.notify_complaint();
CREATE TRIGGER draws_notify_prize AFTER UPDATE OF prize_status ON public.draws FOR EACH ROW WHEN (((new.prize_status IS DISTINCT FROM old.prize_status) AND (new.prize_status = ANY (ARRAY['verified'::public.prize_status, 'delivered'::public.prize_status])))) EXECUTE FUNCTION private.notify_prize();
CREATE TRIGGER draws_notify AFTER INSERT ON public.draws FOR EACH ROW EXECUTE FUNCTION private.notify_draw();
