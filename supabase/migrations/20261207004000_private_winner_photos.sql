-- ============================================================================
-- Private winner photos; image buckets nobody but an admin lists
-- ============================================================================
-- winner-photos becomes private: Storage serves none of its objects by public URL, and no visitor or player
-- reads its rows, so an unpublished or withdrawn photo cannot be listed or downloaded from Storage. The site
-- reads a published photo on its server with the secret key (app/media/winner-photos), after asking
-- winner_photo_published, so a withdrawal stops it at once.
-- competition-images stays public (Storage serves an object by its name without any policy), but its rows are
-- no longer readable by anon or authenticated, so the bucket cannot be listed (splinter's
-- public_bucket_allows_listing). Admins still read both buckets' rows: an upload's insert and a removal's
-- delete return the row, which needs a select policy that lets the admin see it.
update storage.buckets set public = false where id = 'winner-photos';

drop policy "winner photos: anyone reads" on storage.objects;
create policy "winner photos: admins read" on storage.objects
  for select to authenticated
  using (bucket_id = 'winner-photos' and (select public.is_admin()));

drop policy "competition images: anyone reads" on storage.objects;
create policy "competition images: admins read" on storage.objects
  for select to authenticated
  using (bucket_id = 'competition-images' and (select public.is_admin()));
