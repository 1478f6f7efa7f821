-- approval_mode_declared: written by `npm run db:migration` from supabase/schemas. Review it before committing.

drop function public.admin_get_approval_mode();

drop function public.admin_set_approval_mode(text);

create or replace function public.admin_get_approval_mode() returns public.approval_mode_setting
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_admin();
  return row(coalesce(private.setting('approval_mode') #>> '{}', 'manual')::public.approval_mode)::public.approval_mode_setting;
end;
$$;
comment on function public.admin_get_approval_mode() is 'Admins: the approval mode, manual (an admin approves each sign-up) or auto (new sign-ups are approved at once).';
revoke all on function public.admin_get_approval_mode() from public, anon, authenticated, service_role;
grant execute on function public.admin_get_approval_mode() to authenticated;
grant execute on function public.admin_get_approval_mode() to service_role;

create or replace function public.admin_set_approval_mode(p_mode text) returns public.approval_mode_setting
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  old_mode text := coalesce(private.setting('approval_mode') #>> '{}', 'manual');
begin
  if p_mode is null or p_mode not in ('manual', 'auto') then
    raise exception 'Approval mode must be manual or auto' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_mode <> old_mode then
    insert into public.app_settings (key, value, updated_at, updated_by)
    values ('approval_mode', to_jsonb(p_mode), now(), admin_id)
    on conflict (key) do update set value = excluded.value, updated_at = excluded.updated_at, updated_by = excluded.updated_by;
    perform private.log_activity('settings.approval_mode', null,
      jsonb_build_object('approval_mode', jsonb_build_object('old', old_mode, 'new', p_mode)));
  end if;
  return row(p_mode::public.approval_mode)::public.approval_mode_setting;
end;
$$;
comment on function public.admin_set_approval_mode(text) is 'Admins: sets the approval mode (manual or auto; auto approves new sign-ups from then on, not those already waiting); audited with old and new (settings.approval_mode).';
revoke all on function public.admin_set_approval_mode(text) from public, anon, authenticated, service_role;
grant execute on function public.admin_set_approval_mode(text) to authenticated;
grant execute on function public.admin_set_approval_mode(text) to service_role;
