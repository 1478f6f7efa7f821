-- ============================================================================
-- Activity log: the audit trail of admin actions and key user events.
-- Works on hosted Supabase (PostgreSQL 15/17) and on the embedded PGlite.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Table
-- ----------------------------------------------------------------------------
create table public.activity_log (
  id bigint generated always as identity primary key,
  actor_id uuid references auth.users (id) on delete set null,
  action text not null,
  subject_id uuid,
  details jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now()
);
alter table public.activity_log enable row level security;
create index activity_log_created_idx on public.activity_log (created_at desc);
create index activity_log_actor_idx on public.activity_log (actor_id);
comment on table public.activity_log is 'Audit log of admin actions and key user events.';

-- Admins read it; rows are written only by private.log_activity.
revoke all on table public.activity_log from anon, authenticated;
revoke all on sequence public.activity_log_id_seq from anon, authenticated;
grant select on table public.activity_log to authenticated;
grant all on table public.activity_log to service_role;

create policy "activity: admins" on public.activity_log
  for select to authenticated using ((select public.is_admin()));

-- ----------------------------------------------------------------------------
-- Writing it
-- ----------------------------------------------------------------------------
create function private.log_activity(p_action text, p_subject uuid, p_details jsonb default '{}'::jsonb) returns void
language sql security definer set search_path = '' as $$
  insert into public.activity_log (actor_id, action, subject_id, details)
  values (auth.uid(), p_action, p_subject, coalesce(p_details, '{}'::jsonb))
$$;
comment on function private.log_activity(text, uuid, jsonb) is 'Appends one audit row for the current caller.';
