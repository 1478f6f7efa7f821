-- ============================================================================
-- Resetting a user's two-step verification (issue "Hardening" 7): a super admin at aal2 may remove the
-- authenticator of someone who lost it. The factors themselves live in the auth server and are removed
-- through its admin API by the server action; this function is the database's part: it decides who may
-- (a super admin, never for their own account) and for whom (an existing user), and audits it.
-- ============================================================================

create function public.admin_record_two_step_reset(p_user_id uuid) returns void
language plpgsql security definer set search_path = '' as $$
declare
  me uuid := private.require_super_admin();
begin
  if p_user_id = me then
    raise exception 'You cannot reset your own two-step verification. Ask another super admin.'
      using errcode = 'P0001', hint = 'invalid_input';
  end if;
  if not exists (select 1 from public.user_account_data a where a.id = p_user_id) then
    raise exception 'No such user' using errcode = 'PT404', hint = 'user_not_found';
  end if;
  perform private.log_activity('user.two_step_reset', p_user_id);
end;
$$;
comment on function public.admin_record_two_step_reset(uuid) is 'Super admins at aal2: allows and audits (user.two_step_reset) removing another user''s second factors, which the server then does through the auth admin API.';
revoke all on function public.admin_record_two_step_reset(uuid) from public, anon;
grant execute on function public.admin_record_two_step_reset(uuid) to authenticated;
