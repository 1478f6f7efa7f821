-- push_service_endpoints: a push subscription's endpoint must be on a browser push service (the table's own
-- check, so no writer can store another); subscriptions stored before the rule that are not are dropped, as the
-- sender could never deliver them safely. The save function's checks and the 10-per-player cap follow in the
-- next migration, written from the sources.

create or replace function private.is_push_service_endpoint(p_endpoint text) returns boolean
language sql immutable set search_path = '' as $$
  select char_length(p_endpoint) <= 2000
     and p_endpoint ~ ('^https://(fcm\.googleapis\.com|updates\.push\.services\.mozilla\.com'
                       || '|([a-z0-9-]+\.)+push\.apple\.com|([a-z0-9-]+\.)+notify\.windows\.com)'
                       || '/[A-Za-z0-9._~:/?#!$&*+,;=%-]*$')
$$;
comment on function private.is_push_service_endpoint(text) is 'Whether an endpoint is an https URL on a browser push service (FCM, Mozilla, Apple, Windows) with a plain path.';

delete from public.push_subscriptions where not private.is_push_service_endpoint(endpoint);

alter table public.push_subscriptions
  add constraint push_subscriptions_endpoint_check check (private.is_push_service_endpoint(endpoint));

comment on table public.push_subscriptions is 'Web Push subscriptions (RFC 8030 endpoint on a browser push service, RFC 8291 keys), one per browser endpoint, at most 10 per player; a browser signed in as someone else takes the row over.';
