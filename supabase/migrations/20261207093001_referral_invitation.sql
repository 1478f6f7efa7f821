-- referral_invitation: written by `npm run db:migration` from supabase/schemas. Review it before committing.

create or replace function public.get_referral_invitation(p_code text) returns setof public.referral_invitation
language sql stable security definer set search_path = '' as $$
  -- Only a code that would be accepted at sign-up gets a row (as private.referral_check reads it). The name is shown
  -- only for an approved inviter who has not asked to appear by initials, and only when its first word reads as a
  -- name (letters, an apostrophe or a hyphen): the page and its preview card are public, so a name cannot become a
  -- message or an address.
  select case
           when a.approved and not p.show_initials_only and n.first ~ '^[[:alpha:]][[:alpha:]''’-]{0,29}$' then n.first
         end,
         (private.setting('referral_credit') #>> '{}')::numeric
    from public.referral_codes c
    join public.user_account_data a on a.id = c.user_id and a.deleted_at is null
    join public.profiles p on p.id = c.user_id
    cross join lateral (select (regexp_split_to_array(btrim(p.name), '\s+'))[1] as first) n
   where c.code = upper(regexp_replace(coalesce(p_code, ''), '[\s-]', '', 'g'))
$$;
comment on function public.get_referral_invitation(text) is 'Anyone (the invite link''s page and its preview card): for an invite code sign-up would accept, one row with the inviter''s first name (approved inviters who show their name, when it reads as a name; else null) and the referral credit; no row for any other code. Reveals nothing else about the inviter; codes are 50 random bits, so they cannot be listed by trying.';
revoke all on function public.get_referral_invitation(text) from public, anon, authenticated, service_role;
grant execute on function public.get_referral_invitation(text) to anon;
grant execute on function public.get_referral_invitation(text) to authenticated;
grant execute on function public.get_referral_invitation(text) to service_role;
