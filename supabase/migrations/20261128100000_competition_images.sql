-- ============================================================================
-- Competition images (issue 22, item 7): a public Storage bucket that only admins write
-- ============================================================================
-- The bucket and its limits live here, so hosted Supabase (`supabase db push`) and the embedded
-- backend (whose shim gives it Storage's tables) get the same bucket. The console resizes images in
-- the browser to at most 1600 px before uploading, so 5 MB leaves room; the types are what browsers
-- show everywhere and what the resizer writes.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('competition-images', 'competition-images', true, 5242880, array['image/jpeg', 'image/png', 'image/webp'])
on conflict (id) do update
  set public = excluded.public,
      file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;

-- Row-level policies on Storage's objects: prize images are public (a public bucket serves them to
-- anyone by URL; reading the rows also lets the console list them); only an admin, at aal2 with proven
-- factors as public.is_admin() requires everywhere else, adds, replaces or removes one. Other buckets
-- are untouched: each policy names this bucket.
create policy "competition images: anyone reads" on storage.objects
  for select to anon, authenticated
  using (bucket_id = 'competition-images');
create policy "competition images: admins add" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'competition-images' and (select public.is_admin()));
create policy "competition images: admins replace" on storage.objects
  for update to authenticated
  using (bucket_id = 'competition-images' and (select public.is_admin()))
  with check (bucket_id = 'competition-images' and (select public.is_admin()));
create policy "competition images: admins remove" on storage.objects
  for delete to authenticated
  using (bucket_id = 'competition-images' and (select public.is_admin()));
