-- email_code_sent_after_send: written by `npm run db:migration` from supabase/schemas. Review it before committing.

create or replace function public.ask_for_email_code(p_email text) returns integer
language plpgsql volatile security definer set search_path = '' as $$
declare
  address text;
  recent integer;
  oldest timestamptz;
begin
  perform private.require_server();
  address := private.email_code_address(p_email);
  delete from private.email_code_requests r where r.asked_at <= now() - interval '1 hour';
  -- One address at a time: two asks at once must not both take the last place.
  insert into private.email_code_tries (email) values (address) on conflict (email) do nothing;
  perform 1 from private.email_code_tries t where t.email = address for update;
  select count(*), min(r.asked_at) into recent, oldest from private.email_code_requests r where r.email = address;
  if recent >= 5 then
    return greatest(1, ceil(extract(epoch from oldest + interval '1 hour' - now())))::integer;
  end if;
  insert into private.email_code_requests (email) values (address);
  -- The count of tries is not reset here: the auth server may still refuse to send (its spacing, its allowance),
  -- and the code outstanding must keep what it has spent. email_code_sent resets it once a code has gone.
  return 0;
end;
$$;
comment on function public.ask_for_email_code(text) is 'Server only (secret key), before the site asks the auth server to e-mail a code (a sign-in link, a reset, an inbox code): 0 when one may go, counted; else the seconds until one may (five an hour per address). Counted by the address typed, before anything looks it up, so the answer is the same whether or not an account uses it. The tries of the code outstanding are untouched until email_code_sent.';
revoke all on function public.ask_for_email_code(text) from public, anon, authenticated, service_role;
grant execute on function public.ask_for_email_code(text) to service_role;

create or replace function public.email_code_sent(p_email text) returns void
language plpgsql volatile security definer set search_path = '' as $$
declare
  address text;
begin
  perform private.require_server();
  address := private.email_code_address(p_email);
  insert into private.email_code_tries (email, code_asked_at, tries) values (address, now(), 0)
  on conflict (email) do update set code_asked_at = excluded.code_asked_at, tries = 0;
end;
$$;
comment on function public.email_code_sent(text) is 'Server only (secret key), after the auth server accepted a request to e-mail a code to an address (it answered without error, or as it answers an address without an account, which the site answers the same way): the new code starts with five tries. Never before: a refused send leaves the code outstanding with the tries it has left.';
revoke all on function public.email_code_sent(text) from public, anon, authenticated, service_role;
grant execute on function public.email_code_sent(text) to service_role;

comment on table private.email_code_tries is 'Codes typed into the site''s forms for the code outstanding for an address, counted before the auth server checks them (a right one clears the row): after five the code is void until a new one is asked for. Written only by ask_for_email_code, email_code_sent, take_email_code_try and clear_email_code_tries.';
