-- email_request_captcha: written by `npm run db:migration` from supabase/schemas. Review it before committing.

create or replace function public.take_email_request(
  p_visitor text, p_kind text, p_captcha_passed boolean, p_per_visitor integer, p_per_site integer
) returns void
language plpgsql volatile security definer set search_path = '' as $$
declare
  by_visitor integer;
  by_site integer;
begin
  perform private.require_server();
  if p_visitor is null or length(p_visitor) > 100 or p_kind is null or p_kind not in ('account', 'signup')
     or coalesce(p_per_visitor, 0) < 1 or coalesce(p_per_site, 0) < 1 then
    raise exception 'A visitor, the kind of e-mail (account or signup) and both thresholds (1 or more) are required'
      using errcode = '22023', hint = 'invalid_input';
  end if;
  delete from private.email_requests r where r.asked_at <= now() - interval '1 hour';
  select count(*) filter (where r.visitor = p_visitor), count(*) into by_visitor, by_site
    from private.email_requests r where r.kind = p_kind;
  if (by_visitor >= p_per_visitor or by_site >= p_per_site) and not coalesce(p_captcha_passed, false) then
    raise exception 'Please confirm you are a person, then send the form again.' using errcode = 'P0001', hint = 'captcha_required';
  end if;
  insert into private.email_requests (visitor, kind) values (p_visitor, p_kind);
end;
$$;
comment on function public.take_email_request(text,text,boolean,integer,integer) is 'Server only (secret key), before the site asks the auth server for an e-mail to an account (a sign-in link, a reset) or to a new address (a sign-up): counts the request, or refuses it with captcha_required once the visitor has made p_per_visitor of that kind in the last hour or the whole site p_per_site (the site''s settings), unless the visitor has just passed a CAPTCHA. Counted before anything looks the address up, so the answer says nothing about it.';
revoke all on function public.take_email_request(text,text,boolean,integer,integer) from public, anon, authenticated, service_role;
grant execute on function public.take_email_request(text,text,boolean,integer,integer) to service_role;
