-- push_pending_when_wanted: written by `npm run db:migration` from supabase/schemas. Review it before committing.

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
-- bench:notifications). draws.competition_id is unique, so this runs once per competition however
-- often the cron retries; the unique key is the second guard.
create or replace function private.notify_draw() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
begin
  select * into c from public.competitions where id = new.competition_id;
  insert into public.notifications (user_id, kind, ref, title, body, link, push_pending)
  select h.user_id,
         h.kind,
         'draw:' || new.id,
         case when h.kind = 'draw_won' then 'You won: ' || c.title else 'Draw result: ' || c.title end,
         case when h.kind = 'draw_won'
              then format('Your ticket #%s won. Claim your prize on My prizes.', new.winning_number)
              else format('Ticket #%s won; none of your tickets did this time.', new.winning_number) end,
         '/winners/' || new.id,
         private.push_wanted(h.user_id, h.kind)
    from (select distinct t.user_id,
                 case when t.user_id = new.winner_user_id then 'draw_won' else 'draw_lost' end as kind
            from public.tickets t
           where t.competition_id = new.competition_id and t.user_id is not null) h
  on conflict (user_id, kind, ref) do nothing;
  return null;
end;
$$;
comment on function private.notify_draw() is 'After a draw is recorded: a draw_won or draw_lost notification to every account holding a ticket, linking the draw''s verification page.';
revoke all on function private.notify_draw() from public, anon, authenticated, service_role;

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
