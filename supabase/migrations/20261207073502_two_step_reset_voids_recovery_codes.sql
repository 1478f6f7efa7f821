-- two_step_reset_voids_recovery_codes: written by `npm run db:migration` from supabase/schemas. Review it before committing.

create or replace function public.admin_record_two_step_reset(p_user_id uuid) returns void
language plpgsql security definer set search_path = '' as $$
declare
  me uuid := private.require_super_admin();
  voided integer;
begin
  if p_user_id = me then
    raise exception 'You cannot reset your own two-step verification. Ask another super admin.'
      using errcode = 'P0001', hint = 'invalid_input';
  end if;
  if not exists (select 1 from public.user_account_data a where a.id = p_user_id) then
    raise exception 'No such user' using errcode = 'PT404', hint = 'user_not_found';
  end if;
  -- Unused recovery codes belong to the authenticators being removed: whoever holds them (the admin, or whoever
  -- took their phone and password) must not be able to use one after the reset. The new authenticator comes with
  -- a fresh set.
  delete from private.recovery_codes r where r.user_id = p_user_id and r.used_at is null;
  get diagnostics voided = row_count;
  perform private.log_activity('user.two_step_reset', p_user_id, jsonb_build_object('recovery_codes_voided', voided));
end;
$$;
comment on function public.admin_record_two_step_reset(uuid) is 'Super admins at aal2: allows and audits (user.two_step_reset, with the number of recovery codes voided) removing another user''s second factors, which the server then does through the auth admin API, and voids that user''s unused recovery codes.';
revoke all on function public.admin_record_two_step_reset(uuid) from public, anon, authenticated, service_role;
grant execute on function public.admin_record_two_step_reset(uuid) to authenticated;
grant execute on function public.admin_record_two_step_reset(uuid) to service_role;
