-- ============================================================================
-- Charity partners: the charity a competition names and what it gets, the amount owed once drawn, the donations
-- admins record with their proof, and each charity's public totals.
-- The live definition of this area: change it here, then `npm run db:migration -- <name>`
-- writes the migration (README "Changing the database"). Loaded after the files before it.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Tables, each with its indexes, triggers and policies
-- ----------------------------------------------------------------------------

-- A charity, known by the number the Charity Commission (England and Wales: 6 or 7 digits), OSCR (Scotland:
-- SC and 6 digits) or the Charity Commission for Northern Ireland (NIC and 6 digits) registered it under.
create table public.charities (
  id uuid default gen_random_uuid() not null,
  registered_number text not null,
  name text not null,
  website text,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint charities_pkey primary key (id),
  constraint charities_registered_number_key unique (registered_number),
  constraint charities_registered_number_check check ((registered_number ~ '^(SC[0-9]{6}|NIC[0-9]{6}|[0-9]{6,7})$'::text)),
  constraint charities_name_check check (((char_length(name) >= 2) AND (char_length(name) <= 120) AND (name = btrim(name)))),
  constraint charities_website_check check (((website IS NULL) OR ((char_length(website) <= 300) AND (website ~ '^https://[^\s/]+(/\S*)?$'::text))))
);
alter table public.charities enable row level security;
comment on table public.charities is 'Charities competitions support, one row per registered number (England and Wales: 6 or 7 digits; Scotland: SC and 6 digits; Northern Ireland: NIC and 6 digits), with the name and website as an admin last gave them. Read through get_competition_charity and list_charities.';
revoke all on table public.charities from public, anon, authenticated, service_role;
grant all on table public.charities to service_role;

-- What a competition promises its charity: a share of its ticket revenue, or a fixed sum. Set with the competition
-- (admin_create_competition, admin_update_competition) and fixed once it is published, as its dates are.
create table public.competition_charities (
  competition_id uuid not null,
  charity_id uuid not null,
  revenue_percent numeric(5,2),
  fixed_amount numeric(12,2),
  constraint competition_charities_pkey primary key (competition_id),
  constraint competition_charities_competition_id_fkey foreign key (competition_id) references public.competitions(id) on delete cascade,
  constraint competition_charities_charity_id_fkey foreign key (charity_id) references public.charities(id) on delete restrict,
  constraint competition_charities_one_term_check check (((revenue_percent IS NULL) <> (fixed_amount IS NULL))),
  constraint competition_charities_revenue_percent_check check (((revenue_percent IS NULL) OR ((revenue_percent > (0)::numeric) AND (revenue_percent <= (100)::numeric)))),
  constraint competition_charities_fixed_amount_check check (((fixed_amount IS NULL) OR ((fixed_amount > (0)::numeric) AND (fixed_amount <= (10000000)::numeric))))
);
alter table public.competition_charities enable row level security;
comment on table public.competition_charities is 'The charity a competition supports and what it gets: revenue_percent of the paid, not refunded ticket revenue, or fixed_amount; exactly one. Shown before entry; fixed once the competition is published.';
revoke all on table public.competition_charities from public, anon, authenticated, service_role;
grant all on table public.competition_charities to service_role;

create index competition_charities_charity_idx on public.competition_charities (charity_id);

-- A payment made to a competition's charity, as an admin recorded it, with the proof (the charity's receipt or
-- acknowledgement, a bank statement) uploaded to the charity-proofs bucket and served from the site's origin.
create table public.charity_donations (
  id uuid default gen_random_uuid() not null,
  competition_id uuid not null,
  amount numeric(12,2) not null,
  donated_on date not null,
  reference text not null,
  proof_path text not null,
  recorded_by uuid,
  recorded_at timestamp with time zone default now() not null,
  constraint charity_donations_pkey primary key (id),
  constraint charity_donations_competition_id_fkey foreign key (competition_id) references public.competition_charities(competition_id) on delete restrict,
  constraint charity_donations_recorded_by_fkey foreign key (recorded_by) references auth.users(id) on delete set null,
  constraint charity_donations_amount_check check (((amount > (0)::numeric) AND (amount <= (10000000)::numeric))),
  constraint charity_donations_reference_check check (((char_length(reference) >= 1) AND (char_length(reference) <= 100) AND (reference = btrim(reference)))),
  constraint charity_donations_proof_path_check check ((proof_path ~ '^/media/charity-proofs/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(pdf|jpg|png|webp)$'::text))
);
alter table public.charity_donations enable row level security;
comment on table public.charity_donations is 'Each payment to a competition''s charity: when, how much, the payment reference and the site path of its proof document (public). Recorded by admins (admin_record_charity_donation); never edited, so what was published stays published.';
revoke all on table public.charity_donations from public, anon, authenticated, service_role;
grant all on table public.charity_donations to service_role;

create index charity_donations_competition_idx on public.charity_donations (competition_id, donated_on);
create index charity_donations_recorded_by_idx on public.charity_donations (recorded_by);

-- ----------------------------------------------------------------------------
-- Types
-- ----------------------------------------------------------------------------

create type public.charity_donation_record as (id uuid, donated_on date, amount numeric(12,2), reference text, proof_path text);
comment on type public.charity_donation_record is 'One donation as published: date, amount, payment reference and the site path of its proof.';

create type public.competition_charity as (
  name text,
  registered_number text,
  website text,
  revenue_percent numeric(5,2),
  fixed_amount numeric(12,2),
  owed numeric(12,2),
  paid numeric(12,2),
  donations public.charity_donation_record[]
);
comment on type public.competition_charity is 'A competition''s charity partner: the charity, what it gets (a share of revenue or a fixed sum), the amount owed (null until the draw, 0 once cancelled or closed without a draw), what has been paid, and each donation, oldest first.';

create type public.charity_competition_line as (
  slug text,
  title text,
  status public.competition_status,
  revenue_percent numeric(5,2),
  fixed_amount numeric(12,2),
  owed numeric(12,2),
  paid numeric(12,2),
  donations public.charity_donation_record[]
);
comment on type public.charity_competition_line is 'One published competition a charity partners, on the charities page: its terms, owed, paid and donations.';

create type public.charity_total as (
  name text,
  registered_number text,
  website text,
  owed numeric(12,2),
  paid numeric(12,2),
  competitions public.charity_competition_line[]
);
comment on type public.charity_total is 'A charity''s public totals over every published competition it partners (owed once drawn, paid), and each competition, newest first.';

create type public.charity_figures as (period text, owed numeric(12,2), paid numeric(12,2), charities integer);
comment on type public.charity_figures is 'The trust page''s charity figures for one period (''all'' or a London month ''YYYY-MM''): owed to charities by the competitions drawn in it, paid to them by the donations made in it, and how many charities those were.';

-- ----------------------------------------------------------------------------
-- Functions
-- ----------------------------------------------------------------------------

create or replace function private.charity_owed(p_competition_id uuid) returns numeric
language sql stable set search_path = '' as $$
  select case
    when c.status = 'drawn' then
      coalesce(cc.fixed_amount,
               round(coalesce((select sum(e.amount) from public.entries e
                                where e.competition_id = c.id and e.kind = 'paid' and e.status = 'active'), 0)
                     * cc.revenue_percent / 100, 2))
    when c.status = 'cancelled'
      or (c.status = 'closed' and not exists (select 1 from public.tickets t where t.competition_id = c.id)) then 0
  end::numeric(12,2)
  from public.competition_charities cc
  join public.competitions c on c.id = cc.competition_id
  where cc.competition_id = p_competition_id
$$;
comment on function private.charity_owed(uuid) is 'What a competition owes its charity: once drawn, the fixed sum, or the share of its paid, not refunded ticket revenue rounded to the penny; 0 when cancelled (every entry refunded) or closed with no ticket to draw; null before. Null with no charity.';
revoke all on function private.charity_owed(uuid) from public, anon, authenticated, service_role;

create or replace function private.charity_donations_of(p_competition_id uuid) returns public.charity_donation_record[]
language sql stable set search_path = '' as $$
  select coalesce(array_agg(row(g.id, g.donated_on, g.amount, g.reference, g.proof_path)::public.charity_donation_record
                            order by g.donated_on, g.recorded_at), '{}')
    from public.charity_donations g
   where g.competition_id = p_competition_id
$$;
comment on function private.charity_donations_of(uuid) is 'A competition''s donations to its charity, oldest first, as published.';
revoke all on function private.charity_donations_of(uuid) from public, anon, authenticated, service_role;

create or replace function private.competition_charity_row(p_competition_id uuid) returns public.competition_charity
language sql stable set search_path = '' as $$
  select row(ch.name, ch.registered_number, ch.website, cc.revenue_percent, cc.fixed_amount,
             private.charity_owed(cc.competition_id),
             coalesce((select sum(g.amount) from public.charity_donations g where g.competition_id = cc.competition_id), 0),
             private.charity_donations_of(cc.competition_id))::public.competition_charity
    from public.competition_charities cc
    join public.charities ch on ch.id = cc.charity_id
   where cc.competition_id = p_competition_id
$$;
comment on function private.competition_charity_row(uuid) is 'A competition''s charity partner as the public and admin pages show it, or null when it names none.';
revoke all on function private.competition_charity_row(uuid) from public, anon, authenticated, service_role;

create or replace function public.get_competition_charity(p_slug text) returns setof public.competition_charity
language plpgsql stable security definer set search_path = '' as $$
declare
  c public.competitions%rowtype;
begin
  select * into c from public.competitions where slug = p_slug;
  perform private.require_visible_competition(c);
  return query select r.* from private.competition_charity_row(c.id) r where r.name is not null;
end;
$$;
comment on function public.get_competition_charity(text) is 'Public: the charity a competition supports (name, registered number, website), what it gets, and once drawn what is owed, paid and each donation with its proof; no row when it names none. Drafts for admins only.';
revoke all on function public.get_competition_charity(text) from public, anon, authenticated, service_role;
grant execute on function public.get_competition_charity(text) to anon;
grant execute on function public.get_competition_charity(text) to authenticated;
grant execute on function public.get_competition_charity(text) to service_role;

create or replace function public.list_charities() returns setof public.charity_total
language sql stable security definer set search_path = '' as $$
  select ch.name, ch.registered_number, ch.website,
         coalesce(sum(l.owed), 0)::numeric(12,2), coalesce(sum(l.paid), 0)::numeric(12,2),
         array_agg(row(l.slug, l.title, l.status, l.revenue_percent, l.fixed_amount, l.owed, l.paid,
                       l.donations)::public.charity_competition_line order by l.published_at desc, l.slug)
    from public.charities ch
    join lateral (
      select c.slug, c.title, c.status, c.published_at, cc.revenue_percent, cc.fixed_amount,
             private.charity_owed(c.id) as owed,
             coalesce((select sum(g.amount) from public.charity_donations g where g.competition_id = c.id), 0) as paid,
             private.charity_donations_of(c.id) as donations
        from public.competition_charities cc
        join public.competitions c on c.id = cc.competition_id
       where cc.charity_id = ch.id and c.status <> 'draft') l on true
   group by ch.id
   order by coalesce(sum(l.paid), 0) desc, ch.name
$$;
comment on function public.list_charities() is 'Public: every charity a published competition supports, with its totals (owed by the competitions drawn, paid) and each competition''s terms, owed, paid and donations; most paid first.';
revoke all on function public.list_charities() from public, anon, authenticated, service_role;
grant execute on function public.list_charities() to anon;
grant execute on function public.list_charities() to authenticated;
grant execute on function public.list_charities() to service_role;

create or replace function private.competition_set_charity(p_competition_id uuid, p_status public.competition_status, p jsonb)
returns void
language plpgsql set search_path = '' as $$
declare
  charity_name text := btrim(p ->> 'name');
  charity_number text := upper(regexp_replace(coalesce(p ->> 'registered_number', ''), '\s', '', 'g'));
  charity_website text := nullif(btrim(p ->> 'website'), '');
  percent numeric;
  fixed numeric;
  charity uuid;
  before public.competition_charities%rowtype;
begin
  select * into before from public.competition_charities where competition_id = p_competition_id;
  if p is not null and jsonb_typeof(p) <> 'null' then
    if jsonb_typeof(p) <> 'object' then
      raise exception 'Send the charity as an object, or null for none' using errcode = '22023', hint = 'invalid_input';
    end if;
    if charity_name is null or char_length(charity_name) not between 2 and 120 then
      raise exception 'Give the charity''s name (2 to 120 characters)' using errcode = '22023', hint = 'invalid_input';
    end if;
    if charity_number !~ '^(SC[0-9]{6}|NIC[0-9]{6}|[0-9]{6,7})$' then
      raise exception 'Give the registered charity number: 6 or 7 digits, SC and 6 digits, or NIC and 6 digits'
        using errcode = '22023', hint = 'invalid_input';
    end if;
    if charity_website is not null and (char_length(charity_website) > 300 or charity_website !~ '^https://[^\s/]+(/\S*)?$') then
      raise exception 'Give the charity''s website as an https:// address, or leave it empty' using errcode = '22023', hint = 'invalid_input';
    end if;
    begin
      percent := (p ->> 'revenue_percent')::numeric;
      fixed := (p ->> 'fixed_amount')::numeric;
    exception when invalid_text_representation then
      raise exception 'Give the charity''s share as a number' using errcode = '22023', hint = 'invalid_input';
    end;
    if (percent is null) = (fixed is null) then
      raise exception 'Give the charity either a share of ticket revenue or a fixed sum' using errcode = '22023', hint = 'invalid_input';
    end if;
    if percent is not null and (percent <= 0 or percent > 100 or percent <> round(percent, 2)) then
      raise exception 'The charity''s share is a percentage above 0 and at most 100, to two decimal places'
        using errcode = '22023', hint = 'invalid_input';
    end if;
    if fixed is not null and (fixed <= 0 or fixed > 10000000 or fixed <> round(fixed, 2)) then
      raise exception 'The charity''s sum is in pounds and pence, above £0 and at most £10,000,000'
        using errcode = '22023', hint = 'invalid_input';
    end if;
  end if;

  if p_status <> 'draft' then
    -- A term of entry: fixed at publish like the dates (code of practice 2.6). Sending it unchanged is no change.
    if (p is null or jsonb_typeof(p) = 'null') and before.competition_id is null then
      return;
    end if;
    -- The same charity on the same terms may come back with its name or website corrected.
    if before.competition_id is null or p is null or jsonb_typeof(p) = 'null'
       or not (select ch.registered_number = charity_number from public.charities ch where ch.id = before.charity_id)
       or (before.revenue_percent, before.fixed_amount) is distinct from (percent, fixed) then
      raise exception 'The charity and what it receives are fixed once a competition is published'
        using errcode = 'P0001', hint = 'edit_not_allowed';
    end if;
  end if;

  if p is null or jsonb_typeof(p) = 'null' then
    delete from public.competition_charities where competition_id = p_competition_id;
    return;
  end if;
  insert into public.charities as ch (registered_number, name, website)
  values (charity_number, charity_name, charity_website)
  on conflict (registered_number) do update
    set name = excluded.name, website = excluded.website, updated_at = now()
    where (ch.name, ch.website) is distinct from (excluded.name, excluded.website)
  returning id into charity;
  if charity is null then
    select ch.id into charity from public.charities ch where ch.registered_number = charity_number;
  end if;
  insert into public.competition_charities (competition_id, charity_id, revenue_percent, fixed_amount)
  values (p_competition_id, charity, percent, fixed)
  on conflict (competition_id) do update
    set charity_id = excluded.charity_id, revenue_percent = excluded.revenue_percent, fixed_amount = excluded.fixed_amount;
end;
$$;
comment on function private.competition_set_charity(uuid,public.competition_status,jsonb) is 'The competition form''s charity ({name, registered_number, website?, revenue_percent | fixed_amount}, or null for none): checked, the charity kept by its registered number; a draft''s may change; a published competition''s charity and terms are fixed (its name and website may be corrected).';
revoke all on function private.competition_set_charity(uuid,public.competition_status,jsonb) from public, anon, authenticated, service_role;

create or replace function public.admin_competition_charity(p_id uuid) returns setof public.competition_charity
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_admin();
  if not exists (select 1 from public.competitions c where c.id = p_id) then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  return query select r.* from private.competition_charity_row(p_id) r where r.name is not null;
end;
$$;
comment on function public.admin_competition_charity(uuid) is 'Admins: a competition''s charity partner (as get_competition_charity, for any status); no row when it names none.';
revoke all on function public.admin_competition_charity(uuid) from public, anon, authenticated, service_role;
grant execute on function public.admin_competition_charity(uuid) to authenticated;
grant execute on function public.admin_competition_charity(uuid) to service_role;

create or replace function public.admin_record_charity_donation(p_competition_id uuid, p jsonb) returns public.competition_charity
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  c public.competitions%rowtype;
  amount numeric;
  donated date;
  ref text := btrim(p ->> 'reference');
  proof text := p ->> 'proof_path';
  today date := (now() at time zone 'Europe/London')::date;
begin
  select * into c from public.competitions where id = p_competition_id for update;
  if not found then
    raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
  end if;
  if not exists (select 1 from public.competition_charities cc where cc.competition_id = c.id) then
    raise exception 'This competition names no charity' using errcode = 'P0001', hint = 'no_charity';
  end if;
  if c.status <> 'drawn' then
    raise exception 'Donations are recorded once the competition is drawn: what is owed is known then'
      using errcode = 'P0001', hint = 'not_drawn';
  end if;
  begin
    amount := (p ->> 'amount')::numeric;
    donated := (p ->> 'donated_on')::date;
  exception when invalid_text_representation or invalid_datetime_format or datetime_field_overflow then
    raise exception 'Give the amount in pounds and pence and the date as YYYY-MM-DD' using errcode = '22023', hint = 'invalid_input';
  end;
  if amount is null or amount <= 0 or amount > 10000000 or amount <> round(amount, 2) then
    raise exception 'Give the amount in pounds and pence, above £0' using errcode = '22023', hint = 'invalid_input';
  end if;
  if donated is null or donated > today or donated < (c.published_at at time zone 'Europe/London')::date then
    raise exception 'The date of the donation is between the competition''s publication and today'
      using errcode = '22023', hint = 'invalid_input';
  end if;
  if ref is null or char_length(ref) not between 1 and 100 then
    raise exception 'Give the payment reference (up to 100 characters)' using errcode = '22023', hint = 'invalid_input';
  end if;
  if proof is null or proof !~ '^/media/charity-proofs/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(pdf|jpg|png|webp)$' then
    raise exception 'Upload the proof of the donation' using errcode = '22023', hint = 'invalid_input';
  end if;
  insert into public.charity_donations (competition_id, amount, donated_on, reference, proof_path, recorded_by)
  values (c.id, amount, donated, ref, proof, admin_id);
  perform private.log_activity('charity.donation_recorded', c.id,
    jsonb_build_object('amount', amount, 'donated_on', donated, 'reference', ref));
  return private.competition_charity_row(c.id);
end;
$$;
comment on function public.admin_record_charity_donation(uuid,jsonb) is 'Admins: records a payment to a drawn competition''s charity ({amount, donated_on (between publication and today), reference, proof_path (an upload to charity-proofs)}), published at once with its proof; answers the competition''s charity as it now stands.';
revoke all on function public.admin_record_charity_donation(uuid,jsonb) from public, anon, authenticated, service_role;
grant execute on function public.admin_record_charity_donation(uuid,jsonb) to authenticated;
grant execute on function public.admin_record_charity_donation(uuid,jsonb) to service_role;

-- Owed by the month a competition was drawn, paid by the month of the donation, both for all time too.
create or replace function public.get_transparency_charity_figures() returns setof public.charity_figures
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_server();
  return query
    with amounts as (
      select to_char(d.drawn_at at time zone 'Europe/London', 'YYYY-MM') as month, cc.charity_id,
             private.charity_owed(cc.competition_id) as owed, 0::numeric as paid
        from public.competition_charities cc
        join public.draws d on d.competition_id = cc.competition_id and d.prize_position = 1
      union all
      select to_char(g.donated_on, 'YYYY-MM'), cc.charity_id, 0, g.amount
        from public.charity_donations g
        join public.competition_charities cc on cc.competition_id = g.competition_id
    )
    select coalesce(a.month, 'all'), coalesce(sum(a.owed), 0)::numeric(12,2), coalesce(sum(a.paid), 0)::numeric(12,2),
           count(distinct a.charity_id)::integer
      from amounts a
     group by grouping sets ((a.month), ())
    having count(*) > 0;
end;
$$;
comment on function public.get_transparency_charity_figures() is 'The site (secret key only, cached): the trust page''s charity figures for all time and each London month with any: owed by the competitions drawn in it, paid by the donations made in it, and the charities concerned.';
revoke all on function public.get_transparency_charity_figures() from public, anon, authenticated, service_role;
grant execute on function public.get_transparency_charity_figures() to service_role;

-- ----------------------------------------------------------------------------
-- Triggers and policies on tables made elsewhere
-- ----------------------------------------------------------------------------

create policy "charity proofs: admins read" on storage.objects
  as permissive for select to authenticated
  using (((bucket_id = 'charity-proofs'::text) AND ( SELECT public.is_admin() AS is_admin)));
create policy "charity proofs: admins add" on storage.objects
  as permissive for insert to authenticated
  with check (((bucket_id = 'charity-proofs'::text) AND ( SELECT public.is_admin() AS is_admin)));
create policy "charity proofs: admins remove" on storage.objects
  as permissive for delete to authenticated
  using (((bucket_id = 'charity-proofs'::text) AND ( SELECT public.is_admin() AS is_admin)));
