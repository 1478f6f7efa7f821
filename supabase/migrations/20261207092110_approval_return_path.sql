-- approval_return_path: the page a player waiting for approval came from, where the approval leads back to
-- (supabase/schemas/20-accounts.sql), the column and its check written by hand,
-- the functions by `npm run db:migration`.

-- A page on this site to send a player on to: a path of at most 500 characters starting with one slash (never "//"
-- or "/\", which browsers read as another host), without spaces, backslashes or control characters, so it can
-- only ever be joined to the site's own origin.
create or replace function private.is_return_path(p_path text) returns boolean
language sql immutable parallel safe set search_path = '' as $$
  select char_length(p_path) <= 500 and p_path ~ '^/([^/\\[:space:][:cntrl:]][^\\[:space:][:cntrl:]]*)?$'
$$;
comment on function private.is_return_path(text) is 'True for a path on this site to send a player on to: one leading slash (never // or /\), at most 500 characters, no spaces, backslashes or control characters.';
revoke all on function private.is_return_path(text) from public, anon, authenticated, service_role;

alter table public.user_account_data add column return_path text;
alter table public.user_account_data
  add constraint user_account_data_return_path_check check (private.is_return_path(return_path));
comment on column public.user_account_data.return_path is 'The page a player waiting for approval came from (a path on this site, private.is_return_path), recorded by public.my_return_path: the approval notification and e-mail lead back to it. Null: the dashboard.';

-- Kept in the database, not only in the address, because the approval reaches the player by e-mail and
-- notification, away from the page they were waiting on.
create or replace function public.my_return_path(p_path text default null) returns text
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  recorded text;
begin
  if p_path is not null and not private.is_return_path(p_path) then
    raise exception 'That is not a page on this site' using errcode = '22023', hint = 'invalid_input';
  end if;
  -- Only while the account waits: once approved or rejected, the approval has been sent with the page it had.
  if p_path is not null then
    update public.user_account_data a
       set return_path = p_path, updated_at = now()
     where a.id = uid and not a.approved and a.rejected_at is null and a.return_path is distinct from p_path;
  end if;
  select a.return_path into recorded from public.user_account_data a where a.id = uid;
  return recorded;
end;
$$;
comment on function public.my_return_path(text) is 'The page the caller came from before waiting for approval, where the approval notification and e-mail lead: p_path (a path on this site, else invalid_input) is recorded first while the account still waits; answers the recorded path, or null.';
revoke all on function public.my_return_path(text) from public, anon, authenticated, service_role;
grant execute on function public.my_return_path(text) to authenticated;

create or replace function public.admin_approve_user(p_user_id uuid) returns public.account
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  back_to text;
begin
  update public.user_account_data
     set approved = true, approved_at = now(), approved_by = admin_id,
         rejected_at = null, rejection_reason = null, updated_at = now()
   where id = p_user_id
  returning return_path into back_to;
  if not found then
    raise exception 'No such user' using errcode = 'PT404', hint = 'user_not_found';
  end if;
  perform private.log_activity('user.approved', p_user_id);
  -- The mail leads back to the page the player was on when they were asked to wait (public.my_return_path).
  perform private.queue_mail(p_user_id, 'account_approved', 'Your LabCash account is approved',
    format(E'Good news: your LabCash account has been approved. You can now add credit and enter competitions.\n\nCarry on where you left off: %s%s',
           rtrim(coalesce(private.setting('site_url') #>> '{}', 'http://localhost:3000'), '/'), coalesce(back_to, '/account')));
  return private.account_row(p_user_id);
end;
$$;
comment on function public.admin_approve_user(uuid) is 'Admins: approve an account, recording who and when, and e-mail the user a link back to the page they came from (return_path, else the dashboard).';
revoke all on function public.admin_approve_user(uuid) from public, anon, authenticated, service_role;
grant execute on function public.admin_approve_user(uuid) to authenticated;
grant execute on function public.admin_approve_user(uuid) to service_role;

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
