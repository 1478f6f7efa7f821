-- go_live_catalogue: written by `npm run db:migration` from supabase/schemas. Review it before committing.

create or replace function public.go_live_catalogue() returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  migrations jsonb;
begin
  perform private.require_server();
  -- The Supabase CLI's record of applied migrations; null when the project was not migrated by it (a statement
  -- naming a missing table fails as it is planned, so it is only reached when the table exists).
  if to_regclass('supabase_migrations.schema_migrations') is not null then
    select coalesce(jsonb_agg(m.version order by m.version), '[]'::jsonb) into migrations
      from supabase_migrations.schema_migrations m;
  end if;
  return jsonb_build_object(
    'migrations', migrations,
    'storage_policies', (select coalesce(jsonb_agg(p.policyname order by p.policyname), '[]'::jsonb)
                           from pg_catalog.pg_policies p
                          where p.schemaname = 'storage' and p.tablename = 'objects'),
    'last_cron_run', (select jsonb_build_object('started_at', r.started_at, 'ok', r.ok)
                        from private.last_cron_run() r
                       where r.id is not null));
end;
$$;
comment on function public.go_live_catalogue() is 'Server: what the go-live check compares with the repository: the migrations the Supabase CLI recorded as applied (null without its table), the row-level policies on Storage objects, and the last run of the scheduled job (null before the first).';
revoke all on function public.go_live_catalogue() from public, anon, authenticated, service_role;
grant execute on function public.go_live_catalogue() to service_role;
