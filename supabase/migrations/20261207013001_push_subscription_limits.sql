-- push_subscription_limits: written by `npm run db:migration` from supabase/schemas. Review it before committing.

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
