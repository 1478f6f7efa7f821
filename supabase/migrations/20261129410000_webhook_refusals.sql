-- ============================================================================
-- Operations (issue 28): refused webhook calls.
-- A call to the Stripe webhook whose signature is missing or wrong names no event we can trust, so it is not a
-- delivery (webhook_deliveries); but when the signing secret was rotated wrongly every real delivery is refused
-- this way, and nothing said so. Each refusal is now counted per hour (the provider and the hour only: no body,
-- no address), the System page shows the last 24 hours beside the deliveries, and more than three in one hour
-- raise one alert for that hour.
-- ============================================================================

create table public.webhook_refusal_counts (
  hour timestamptz not null,
  provider text not null check (provider in ('stripe')),
  refusals integer not null default 0 check (refusals >= 0),
  primary key (hour, provider)
);
alter table public.webhook_refusal_counts enable row level security;
comment on table public.webhook_refusal_counts is 'Calls to a payment webhook refused for a missing or bad signature, per hour and provider. Counts only: no body, event or address (anyone can make such a call).';

-- Read and written through the functions below only.
revoke all on table public.webhook_refusal_counts from anon, authenticated;
grant all on table public.webhook_refusal_counts to service_role;

alter table public.ops_alerts drop constraint ops_alerts_kind_check;
alter table public.ops_alerts add constraint ops_alerts_kind_check
  check (kind in ('draw_overdue', 'cron_stale', 'webhook_failing', 'payment_needs_person', 'webhook_refused'));

create function public.record_webhook_refusal(p_provider text) returns void
language plpgsql security definer set search_path = '' as $$
declare
  this_hour timestamptz := date_trunc('hour', now());
  refused integer;
begin
  if not private.is_service_role() then
    raise exception 'Access denied: server only' using errcode = '42501', hint = 'server_only';
  end if;
  if p_provider is distinct from 'stripe' then
    raise exception 'Not a webhook provider' using errcode = '22023', hint = 'invalid_input';
  end if;
  insert into public.webhook_refusal_counts (hour, provider, refusals)
  values (this_hour, p_provider, 1)
  on conflict (hour, provider) do update set refusals = public.webhook_refusal_counts.refusals + 1
  returning refusals into refused;
  delete from public.webhook_refusal_counts where hour < now() - interval '30 days';
  -- A few refusals are noise (anyone can post to the webhook); more than three in an hour is told once for that
  -- hour, because a wrongly rotated signing secret refuses every real delivery this way.
  if refused > 3 then
    perform private.raise_alert('webhook_refused',
      'webhook_refused:' || p_provider || ':' || to_char(this_hour at time zone 'UTC', 'YYYY-MM-DD"T"HH24'),
      format('%s webhook calls are being refused for a bad signature', p_provider),
      format('More than three calls to the %s webhook were refused for a missing or wrong signature in the hour from %s (UK time). If real deliveries are among them, the signing secret on the server (STRIPE_WEBHOOK_SECRET) does not match the endpoint''s in the %s dashboard.',
             p_provider, to_char(this_hour at time zone 'Europe/London', 'DD Mon YYYY HH24:MI'), p_provider));
  end if;
end;
$$;
comment on function public.record_webhook_refusal(text) is 'Server: counts one webhook call refused for a bad signature in the current hour; more than three in an hour raise one alert for that hour.';
revoke execute on function public.record_webhook_refusal(text) from public, anon, authenticated;
grant execute on function public.record_webhook_refusal(text) to service_role;

create function public.admin_webhook_refusals() returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_admin();
  return coalesce((select jsonb_agg(jsonb_build_object('hour', w.hour, 'provider', w.provider, 'refusals', w.refusals)
                                    order by w.hour desc, w.provider)
                     from public.webhook_refusal_counts w
                    where w.hour > now() - interval '24 hours'), '[]'::jsonb);
end;
$$;
comment on function public.admin_webhook_refusals() is 'Admins: webhook calls refused for a bad signature, per hour and provider, the last 24 hours (the System page).';
revoke execute on function public.admin_webhook_refusals() from public, anon;
grant execute on function public.admin_webhook_refusals() to authenticated;
