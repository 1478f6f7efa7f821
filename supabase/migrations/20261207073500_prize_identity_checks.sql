-- prize_identity_checks: what an admin checked before verifying a winner's claim (supabase/schemas/30-competitions.sql
-- for the types, 35-winners-and-fulfilment.sql for the table), written by hand because it adds a table and types.

create type public.identity_document as enum ('passport', 'driving_licence', 'national_identity_card', 'other');
comment on type public.identity_document is 'The document an admin checked a winner''s identity against before their claim was verified.';

create type public.prize_identity_check as (document_type public.identity_document, document_last_four text, note text, checked_by text, checked_at timestamp with time zone);
comment on type public.prize_identity_check is 'The identity check behind a verified claim, as admins see it: the document, the last four characters of its number, the note, the admin''s name and when.';

alter type public.prize_fulfilment add attribute identity_check public.prize_identity_check;
comment on type public.prize_fulfilment is 'One draw''s prize fulfilment for admins: the prize, the winner (name, e-mail or postal address, route), the claim, the status with its times, the note, the proof of delivery, the prize''s cost, the winner''s photo consent and story, and the identity check behind the latest verification.';

-- What an admin checked before verifying a winner's claim. Only the last four characters of the document's number
-- are kept (data minimisation: enough to tell two documents apart, never enough to use one); who and when come
-- from the caller and the clock, never from the form. One row per verification, so a claim verified again after a
-- step back keeps both checks.
create table public.prize_identity_checks (
  id bigint generated always as identity not null,
  draw_id uuid not null,
  document_type public.identity_document not null,
  document_last_four text not null,
  note text,
  checked_by uuid,
  checked_at timestamp with time zone default now() not null,
  constraint prize_identity_checks_pkey primary key (id),
  constraint prize_identity_checks_document_last_four_check check (document_last_four ~ '^[A-Z0-9]{4}$'),
  constraint prize_identity_checks_note_check check (note is null or char_length(note) between 1 and 500),
  -- "Other" says which document in the note.
  constraint prize_identity_checks_other_noted_check check (document_type <> 'other' or note is not null),
  constraint prize_identity_checks_draw_id_fkey foreign key (draw_id) references public.draws(id) on delete cascade,
  constraint prize_identity_checks_checked_by_fkey foreign key (checked_by) references auth.users(id) on delete set null
);
alter table public.prize_identity_checks enable row level security;
comment on table public.prize_identity_checks is 'Each identity check behind a verified prize claim: the document type, the last four characters of its number (never the whole number), a note, the admin who checked (auth.uid()) and when (now()). Written only by admin_update_prize_fulfilment; read by admins only.';
revoke all on table public.prize_identity_checks from public, anon, authenticated, service_role;
grant select on table public.prize_identity_checks to authenticated;
grant all on table public.prize_identity_checks to service_role;

create index prize_identity_checks_draw_id_idx on public.prize_identity_checks (draw_id);
create index prize_identity_checks_checked_by_idx on public.prize_identity_checks (checked_by);
create policy "prize identity checks: admins read" on public.prize_identity_checks
  as permissive for select to authenticated
  using (( SELECT public.is_admin() AS is_admin));
