-- ============================================================================
-- Mail: the outbox, campaigns, marketing consent and unsubscribe tokens.
-- The live definition of this area: change it here, then `npm run db:migration -- <name>`
-- writes the migration (README "Changing the database"). Loaded after the files before it.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Tables, each with its indexes, triggers and policies
-- ----------------------------------------------------------------------------

create type public.mail_status as enum ('queued', 'sent', 'failed');
comment on type public.mail_status is 'Where a message of the mail outbox stands.';
create type public.mail_transport as enum ('smtp', 'outbox');
comment on type public.mail_transport is 'How a message left: by SMTP, or kept in the outbox (no SMTP_URL).';
create table public.mail_outbox (
  id bigint generated always as identity,
  to_email text not null,
  to_user uuid,
  kind text not null,
  subject text not null,
  body_text text not null,
  status public.mail_status default 'queued'::public.mail_status not null,
  error text,
  created_at timestamp with time zone default now() not null,
  sent_at timestamp with time zone,
  transport public.mail_transport,
  claimed_at timestamp with time zone,
  attempts integer default 0 not null,
  campaign_id uuid,
  list_unsubscribe text,
  constraint mail_outbox_pkey primary key (id),
  constraint mail_outbox_to_user_fkey foreign key (to_user) references auth.users(id) on delete set null
);
alter table public.mail_outbox enable row level security;
comment on table public.mail_outbox is 'Mail the app sends; delivered by the mail adapter (SMTP when configured), kept here either way.';
comment on column public.mail_outbox.transport is 'How a sent row was delivered: smtp, or outbox (no SMTP configured: the outbox is the inbox).';
comment on column public.mail_outbox.campaign_id is 'The admin campaign that queued this row; null for mail the app sends itself (receipts, results, approvals).';
comment on column public.mail_outbox.list_unsubscribe is 'Marketing mail: the one-click unsubscribe address for its List-Unsubscribe header (RFC 8058); null for service mail.';
revoke all on table public.mail_outbox from public, anon, authenticated, service_role;
grant select on table public.mail_outbox to authenticated;
grant all on table public.mail_outbox to service_role;

create index mail_outbox_to_user_idx on public.mail_outbox (to_user);
create index mail_outbox_campaign_idx on public.mail_outbox (campaign_id, id DESC) where (campaign_id IS NOT NULL);
create index mail_outbox_queued_idx on public.mail_outbox (id) where (status = 'queued'::public.mail_status);
create index mail_outbox_failed_idx on public.mail_outbox (created_at) where (status = 'failed'::public.mail_status);
create policy "mail outbox: admins" on public.mail_outbox
  as permissive for select to authenticated
  using (( SELECT public.is_admin() AS is_admin));

create type public.mail_kind as enum ('marketing', 'service');
comment on type public.mail_kind is 'What a mail campaign is: marketing (needs consent, held back during breaks) or a service notice.';
create type public.mail_segment as enum ('all_players', 'competition_entrants', 'no_recent_entry');
comment on type public.mail_segment is 'Who a mail campaign is for.';
create table public.mail_campaigns (
  id uuid default gen_random_uuid() not null,
  kind public.mail_kind not null,
  segment public.mail_segment not null,
  competition_id uuid,
  subject text not null,
  body_text text not null,
  recipients integer default 0 not null,
  sent_by uuid,
  request_id uuid,
  created_at timestamp with time zone default now() not null,
  constraint mail_campaigns_pkey primary key (id),
  constraint mail_campaigns_request_id_key unique (request_id),
  constraint mail_campaigns_body_text_check check (((char_length(body_text) >= 20) AND (char_length(body_text) <= 5000))),
  constraint mail_campaigns_competition_for_entrants_check check (((segment = 'competition_entrants'::public.mail_segment) = (competition_id IS NOT NULL))),
  constraint mail_campaigns_recipients_check check ((recipients >= 0)),
  constraint mail_campaigns_subject_check check (((char_length(subject) >= 3) AND (char_length(subject) <= 120))),
  constraint mail_campaigns_competition_id_fkey foreign key (competition_id) references public.competitions(id) on delete restrict,
  constraint mail_campaigns_sent_by_fkey foreign key (sent_by) references auth.users(id) on delete set null
);
alter table public.mail_campaigns enable row level security;
comment on table public.mail_campaigns is 'One mail an admin sent to a segment of players: who sent what (subject and body as written), of which kind, to which segment, and to how many; its outbox rows carry campaign_id.';
comment on column public.mail_campaigns.request_id is 'The compose screen''s key for one send: a second submit of the same preview returns the campaign already sent instead of mailing everyone twice.';
revoke all on table public.mail_campaigns from public, anon, authenticated, service_role;
grant all on table public.mail_campaigns to service_role;

alter table public.mail_outbox add constraint mail_outbox_campaign_id_fkey foreign key (campaign_id) references public.mail_campaigns(id) on delete restrict;
create index mail_campaigns_created_idx on public.mail_campaigns (created_at DESC, id DESC);
create index mail_campaigns_competition_idx on public.mail_campaigns (competition_id);
create index mail_campaigns_sent_by_idx on public.mail_campaigns (sent_by);

create type public.consent_source as enum ('sign_up', 'profile', 'unsubscribe_link', 'not_asked');
comment on type public.consent_source is 'Where a marketing consent choice was made; not_asked: set off by a migration for an account that was never asked.';
create table public.marketing_consents (
  id bigint generated always as identity,
  user_id uuid not null,
  given boolean not null,
  wording text not null,
  source public.consent_source not null,
  created_at timestamp with time zone default now() not null,
  constraint marketing_consents_pkey primary key (id),
  constraint marketing_consents_wording_check check (((char_length(wording) >= 1) AND (char_length(wording) <= 500))),
  constraint marketing_consents_user_id_fkey foreign key (user_id) references auth.users(id) on delete cascade
);
alter table public.marketing_consents enable row level security;
comment on table public.marketing_consents is 'Every marketing consent choice (PECR, code of practice 1.11): who, given or withdrawn, when, the wording it was about and where it was made (sign_up, profile, unsubscribe_link, or not_asked: set off by a migration for an account that was never asked). Written only by private.record_marketing_consent.';
revoke all on table public.marketing_consents from public, anon, authenticated, service_role;
grant all on table public.marketing_consents to service_role;

create index marketing_consents_user_idx on public.marketing_consents (user_id, id DESC);

create table public.marketing_unsubscribe_tokens (
  token_hash bytea primary key check (octet_length(token_hash) = 32),
  user_id uuid not null references auth.users (id) on delete cascade,
  mail_id bigint references public.mail_outbox (id) on delete cascade,
  created_at timestamptz not null default now(),
  used_at timestamptz
);
alter table public.marketing_unsubscribe_tokens enable row level security;
comment on table public.marketing_unsubscribe_tokens is 'The unsubscribe link of each marketing mail: the SHA-256 of its random token (the token itself is only in the mail), whose consent it withdraws, and when it was used (once).';
revoke all on table public.marketing_unsubscribe_tokens from public, anon, authenticated, service_role;
grant all on table public.marketing_unsubscribe_tokens to service_role;

create index marketing_unsubscribe_tokens_user_idx on public.marketing_unsubscribe_tokens (user_id);
create index marketing_unsubscribe_tokens_mail_idx on public.marketing_unsubscribe_tokens (mail_id);

-- ----------------------------------------------------------------------------
-- Functions
-- ----------------------------------------------------------------------------

create or replace function private.optional_mail_kinds() returns text[]
language sql immutable security definer set search_path = '' as $$
  -- News the site shows the player as it happens (the purchase reply, the notification centre). Receipts, a draw
  -- win, refunds, complaint answers, approval and security mail are not here: they go whatever the preference.
  select array['instant_win']
$$;
comment on function private.optional_mail_kinds() is 'The mail kinds a player''s notification preference (profiles.email_notifications) can turn off.';
revoke all on function private.optional_mail_kinds() from public, anon, authenticated, service_role;

create or replace function private.queue_mail(p_user uuid, p_kind text, p_subject text, p_body text) returns void
language plpgsql security definer set search_path = '' as $$
begin
  insert into public.mail_outbox (to_email, to_user, kind, subject, body_text)
  select u.email, u.id, p_kind, p_subject, p_body from auth.users u
   where u.id = p_user and u.email is not null
     and (p_kind <> all (private.optional_mail_kinds())
          or coalesce((select p.email_notifications from public.profiles p where p.id = p_user), true));
end;
$$;
comment on function private.queue_mail(uuid,text,text,text) is 'Queues one e-mail to a user, unless it is of an optional kind (private.optional_mail_kinds) and they turned e-mail notifications off.';
revoke all on function private.queue_mail(uuid,text,text,text) from public, anon, authenticated, service_role;

create or replace function public.claim_mail_batch(p_limit integer default 20)
returns table (id bigint, to_email text, kind text, subject text, body_text text, list_unsubscribe text)
language plpgsql security definer set search_path = '' as $$
begin
  perform private.require_server();
  -- A claim lasts five minutes: a crashed sender's rows are retried, and
  -- concurrent senders never take the same row.
  return query
    update public.mail_outbox m
       set claimed_at = now(), attempts = m.attempts + 1
     where m.id in (select q.id from public.mail_outbox q
                     where q.status = 'queued' and (q.claimed_at is null or q.claimed_at < now() - interval '5 minutes')
                     order by q.id
                     limit least(greatest(coalesce(p_limit, 20), 1), 100)
                     for update skip locked)
    returning m.id, m.to_email, m.kind, m.subject, m.body_text, m.list_unsubscribe;
end;
$$;
comment on function public.claim_mail_batch(integer) is 'Server: claims up to p_limit queued mails for delivery (five-minute claim), each with its List-Unsubscribe address (marketing) or null.';
revoke all on function public.claim_mail_batch(integer) from public, anon, authenticated, service_role;
grant execute on function public.claim_mail_batch(integer) to service_role;

-- The functions that wrote these columns with text, each with the cast after its own check.
create or replace function public.mark_mail_sent(p_id bigint, p_transport text) returns void
language plpgsql security definer set search_path = '' as $$
begin
  perform private.require_server();
  if p_transport not in ('smtp', 'outbox') then
    raise exception 'Transport must be smtp or outbox' using errcode = '22023', hint = 'invalid_input';
  end if;
  update public.mail_outbox
     set status = 'sent', sent_at = now(), transport = p_transport::public.mail_transport, error = null
   where id = p_id and status = 'queued';
end;
$$;
comment on function public.mark_mail_sent(bigint,text) is 'Server: marks a claimed mail delivered (by SMTP, or kept in the outbox when no SMTP is configured).';
revoke all on function public.mark_mail_sent(bigint,text) from public, anon, authenticated, service_role;
grant execute on function public.mark_mail_sent(bigint,text) to service_role;

create or replace function public.mark_mail_failed(p_id bigint, p_error text) returns void
language plpgsql security definer set search_path = '' as $$
begin
  perform private.require_server();
  -- Five attempts, then the row is failed for an admin to see.
  update public.mail_outbox
     set status = (case when attempts >= 5 then 'failed' else 'queued' end)::public.mail_status,
         claimed_at = null, error = left(p_error, 1000)
   where id = p_id and status = 'queued';
end;
$$;
comment on function public.mark_mail_failed(bigint,text) is 'Server: records a delivery failure; the mail is retried until its fifth attempt, then marked failed.';
revoke all on function public.mark_mail_failed(bigint,text) from public, anon, authenticated, service_role;
grant execute on function public.mark_mail_failed(bigint,text) to service_role;

create or replace function private.mail_compose_check(p_kind text, p_segment text, p_competition_id uuid,
                                           p_subject text, p_body text)
returns void
language plpgsql security definer set search_path = '' as $$
declare
  v_subject text := btrim(coalesce(p_subject, ''));
  v_body text := btrim(replace(coalesce(p_body, ''), E'\r\n', E'\n'));
begin
  if p_kind is null or p_kind not in ('marketing', 'service') then
    raise exception 'Choose marketing or a service notice' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_segment is null or p_segment not in ('all_players', 'competition_entrants', 'no_recent_entry') then
    raise exception 'Choose who the mail goes to' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_segment = 'competition_entrants' then
    if p_competition_id is null then
      raise exception 'Choose the competition whose entrants get the mail' using errcode = '22023', hint = 'invalid_input';
    end if;
    if not exists (select 1 from public.competitions c where c.id = p_competition_id) then
      raise exception 'Competition not found' using errcode = 'PT404', hint = 'competition_not_found';
    end if;
  end if;
  if char_length(v_subject) not between 3 and 120 then
    raise exception 'The subject must be 3 to 120 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if v_subject ~ '[\r\n]' then
    raise exception 'The subject must be one line' using errcode = '22023', hint = 'invalid_input';
  end if;
  if char_length(v_body) not between 20 and 5000 then
    raise exception 'The message must be 20 to 5,000 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
end;
$$;
comment on function private.mail_compose_check(text,text,uuid,text,text) is 'Refuses a bad compose form: the kind (marketing or service), the segment, the competition of an entrants segment (required, must exist), a subject of 3-120 characters on one line and a message of 20-5,000 characters (both trimmed).';
revoke all on function private.mail_compose_check(text,text,uuid,text,text) from public, anon, authenticated, service_role;

create or replace function private.mail_segment_members(p_segment text, p_competition_id uuid)
returns table (user_id uuid, name text, email text, consented boolean)
language sql stable security definer set search_path = '' as $$
  select a.id, p.name, u.email::text, p.marketing_consent
    from public.user_account_data a
    join public.profiles p on p.id = a.id
    join auth.users u on u.id = a.id
   -- Players only, approved by an admin, not deleted, with an address, and of verified age
   -- (a date of birth on file, 18 or over): never an unapproved account or an unknown age.
   where a.role = 'user'
     and a.approved
     and a.deleted_at is null
     and nullif(btrim(u.email), '') is not null
     and p.date_of_birth is not null
     and p.date_of_birth <= (current_date - interval '18 years')::date
     and case p_segment
           when 'all_players' then true
           -- Anyone who entered it, refunded or withdrawn entries included: a cancelled
           -- competition's entrants still need to hear about it.
           when 'competition_entrants' then exists (select 1 from public.entries e
                                                      where e.competition_id = p_competition_id and e.user_id = a.id)
           when 'no_recent_entry' then not exists (select 1 from public.entries e
                                                    where e.user_id = a.id and e.created_at > now() - interval '30 days')
           else false
         end
$$;
comment on function private.mail_segment_members(text,uuid) is 'The players a segment names now (all_players; competition_entrants of p_competition_id; no_recent_entry: no entry in the last 30 days), each approved, not deleted, with an e-mail and a date of birth 18 or more years ago; consented is their marketing choice.';
revoke all on function private.mail_segment_members(text,uuid) from public, anon, authenticated, service_role;

create or replace function private.mail_recipients(p_kind text, p_segment text, p_competition_id uuid)
returns table (user_id uuid, name text, email text)
language sql security definer set search_path = '' as $$
  select m.user_id, m.name, m.email
    from private.mail_segment_members(p_segment, p_competition_id) m
   -- Marketing only with consent and never during a break, self-exclusion or after closure.
   where p_kind = 'service' or (m.consented and private.may_receive_marketing(m.user_id))
$$;
comment on function private.mail_recipients(text,text,uuid) is 'Who a mail of kind p_kind to the segment reaches now: the whole segment for a service notice; for marketing, only members private.may_receive_marketing allows (consent, no break, exclusion or closure).';
revoke all on function private.mail_recipients(text,text,uuid) from public, anon, authenticated, service_role;

create or replace function private.mail_render(p_kind text, p_name text, p_body text) returns text
language sql stable security definer set search_path = '' as $$
  select 'Hello ' || coalesce(nullif(split_part(btrim(coalesce(p_name, '')), ' ', 1), ''), 'there') || E',\n\n'
         || btrim(replace(p_body, E'\r\n', E'\n')) || E'\n\n-- \n'
         || case when p_kind = 'marketing' then
              format(E'You get this because you chose "E-mail me about new competitions and results". '
                     'To stop, untick it on your profile: %s/account/profile\n'
                     'Play within your means: %s/docs/responsible-play',
                     private.setting('site_url') #>> '{}', private.setting('site_url') #>> '{}')
            else
              'This is a service message about your LabCash account or entries; it is sent whatever your marketing choice.'
            end
$$;
comment on function private.mail_render(text,text,text) is 'The text a recipient gets: a greeting with their first name, the message, and a footer (marketing: why they get it and how to stop; service: that it is not marketing).';
revoke all on function private.mail_render(text,text,text) from public, anon, authenticated, service_role;

create type public.competition_ref as (id uuid, title text);
comment on type public.competition_ref is 'A competition referred to by its id and title.';

create type public.mail_campaign as (id uuid, kind public.mail_kind, segment public.mail_segment, competition public.competition_ref, subject text, body_text text, recipients integer, queued bigint, sent bigint, failed bigint, sent_by public.person_ref, created_at timestamp with time zone);
comment on type public.mail_campaign is 'One mail campaign as the mail screen shows it: kind, segment, competition, subject and body, recipients, its outbox rows counted by status, and who sent it (Deleted user once anonymised).';

create or replace function private.mail_campaign_of(p_id uuid) returns public.mail_campaign
language sql stable security definer set search_path = '' as $$
  select c.id,
         c.kind,
         c.segment,
         case when cp.id is not null then row(cp.id, cp.title)::public.competition_ref end,
         c.subject,
         c.body_text,
         c.recipients,
         (select count(*) from public.mail_outbox m where m.campaign_id = c.id and m.status = 'queued'),
         (select count(*) from public.mail_outbox m where m.campaign_id = c.id and m.status = 'sent'),
         (select count(*) from public.mail_outbox m where m.campaign_id = c.id and m.status = 'failed'),
         case when c.sent_by is not null then row(c.sent_by, coalesce(sp.name, 'Deleted user'))::public.person_ref end,
         c.created_at
  from public.mail_campaigns c
  left join public.competitions cp on cp.id = c.competition_id
  left join public.profiles sp on sp.id = c.sent_by
  where c.id = p_id
$$;
comment on function private.mail_campaign_of(uuid) is 'One campaign as the mail screen shows it: kind, segment, competition, subject and body, recipients, and its outbox rows counted by status; null when there is no such campaign.';
revoke all on function private.mail_campaign_of(uuid) from public, anon, authenticated, service_role;

create type public.mail_campaign_sent as (id uuid, kind public.mail_kind, segment public.mail_segment, competition public.competition_ref, subject text, body_text text, recipients integer, queued bigint, sent bigint, failed bigint, sent_by public.person_ref, created_at timestamp with time zone, already_sent boolean);
comment on type public.mail_campaign_sent is 'A campaign just queued (public.mail_campaign''s fields), and whether it had already been sent by an earlier submit of the same request.';

create or replace function private.mail_campaign_sent(p_id uuid, p_already_sent boolean) returns public.mail_campaign_sent
language sql stable security definer set search_path = '' as $$
  select c.id, c.kind, c.segment, c.competition, c.subject, c.body_text, c.recipients, c.queued, c.sent, c.failed,
         c.sent_by, c.created_at, p_already_sent
    from private.mail_campaign_of(p_id) c
$$;
comment on function private.mail_campaign_sent(uuid,boolean) is 'A campaign admin_send_mail answers: private.mail_campaign_of''s fields and whether an earlier submit of the same request had sent it.';
revoke all on function private.mail_campaign_sent(uuid,boolean) from public, anon, authenticated, service_role;

create type public.mail_sample as (name text, email text);
comment on type public.mail_sample is 'The recipient a preview is rendered for.';

create type public.mail_held_back as (no_consent integer, protected integer);
comment on type public.mail_held_back is 'Members a marketing mail would not reach: without consent, and on a break, excluded or closed (both 0 for a service notice).';

create type public.mail_preview as (kind public.mail_kind, segment public.mail_segment, competition public.competition_ref, members integer, recipients integer, held_back public.mail_held_back, subject text, body_text text, sample public.mail_sample, rendered text);
comment on type public.mail_preview is 'What a mail would do: the segment''s members now, who it reaches, who is held back, the subject and body, and the message rendered for the first recipient by name (sample, or null when nobody gets it).';

create or replace function public.admin_preview_mail(p_kind text, p_segment text, p_competition_id uuid,
                                                     p_subject text, p_body text)
returns public.mail_preview
language plpgsql security definer set search_path = '' as $$
declare
  members integer;
  no_consent integer;
  blocked integer;
  recipients integer;
  sample_name text;
  sample_email text;
  v_competition uuid := case when p_segment = 'competition_entrants' then p_competition_id end;
begin
  perform private.require_admin();
  perform private.mail_compose_check(p_kind, p_segment, v_competition, p_subject, p_body);
  -- Not stable: may_receive_marketing applies a due limit change as it reads, as every read does.
  select count(*), count(*) filter (where not m.consented),
         count(*) filter (where m.consented and not private.may_receive_marketing(m.user_id))
    into members, no_consent, blocked
    from private.mail_segment_members(p_segment, v_competition) m;
  recipients := case when p_kind = 'service' then members else members - no_consent - blocked end;
  select r.name, r.email into sample_name, sample_email
    from private.mail_recipients(p_kind, p_segment, v_competition) r
   order by r.name, r.email
   limit 1;
  -- mail_compose_check has refused any kind or segment outside their sets, so the casts cannot fail.
  return row(
    p_kind::public.mail_kind,
    p_segment::public.mail_segment,
    (select row(c.id, c.title)::public.competition_ref from public.competitions c where c.id = v_competition),
    members,
    recipients,
    row(case when p_kind = 'marketing' then no_consent else 0 end,
        case when p_kind = 'marketing' then blocked else 0 end)::public.mail_held_back,
    btrim(p_subject),
    btrim(replace(p_body, E'\r\n', E'\n')),
    case when sample_email is not null then row(sample_name, sample_email)::public.mail_sample end,
    private.mail_render_with_link(p_kind, coalesce(sample_name, 'Alex Example'), p_body,
                                  private.unsubscribe_url('(their own link)', false)))::public.mail_preview;
end;
$$;
comment on function public.admin_preview_mail(text,text,uuid,text,text) is 'Admins: what a mail would do, without sending: members (the segment now), recipients (who it reaches: all members for a service notice; for marketing, without those who did not consent or are on a break, excluded or closed: held_back), and the message rendered as the first recipient (by name) would get it. Checks the form as admin_send_mail does.';
revoke all on function public.admin_preview_mail(text,text,uuid,text,text) from public, anon, authenticated, service_role;
grant execute on function public.admin_preview_mail(text,text,uuid,text,text) to authenticated;
grant execute on function public.admin_preview_mail(text,text,uuid,text,text) to service_role;

create or replace function public.admin_send_mail(p_kind text, p_segment text, p_competition_id uuid, p_subject text, p_body text, p_request_id uuid default null) returns public.mail_campaign_sent
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  v_competition uuid := case when p_segment = 'competition_entrants' then p_competition_id end;
  v_subject text;
  v_body text;
  v_campaign uuid;
  v_mail bigint;
  v_token text;
  r record;
  queued integer := 0;
begin
  perform private.mail_compose_check(p_kind, p_segment, v_competition, p_subject, p_body);
  v_subject := btrim(p_subject);
  v_body := btrim(replace(p_body, E'\r\n', E'\n'));

  -- A second submit of the same compose screen (double click, resubmitted page) sends nothing more.
  insert into public.mail_campaigns (kind, segment, competition_id, subject, body_text, sent_by, request_id)
  values (p_kind::public.mail_kind, p_segment::public.mail_segment, v_competition, v_subject, v_body, admin_id, p_request_id)
  on conflict (request_id) do nothing
  returning id into v_campaign;
  if v_campaign is null then
    select c.id into v_campaign from public.mail_campaigns c where c.request_id = p_request_id;
    return private.mail_campaign_sent(v_campaign, true);
  end if;

  -- One outbox row per recipient; a marketing mail gets its own unsubscribe token, in its footer and header.
  for r in select m.user_id, m.name, m.email
             from private.mail_recipients(p_kind, p_segment, v_competition) m
            order by m.user_id loop
    v_token := case when p_kind = 'marketing' then private.new_unsubscribe_token(r.user_id) end;
    insert into public.mail_outbox (to_email, to_user, kind, subject, body_text, campaign_id, list_unsubscribe)
    values (r.email, r.user_id, p_kind, v_subject,
            private.mail_render_with_link(p_kind, r.name, v_body, private.unsubscribe_url(v_token, false)),
            v_campaign, private.unsubscribe_url(v_token, true))
    returning id into v_mail;
    if v_token is not null then
      update public.marketing_unsubscribe_tokens t set mail_id = v_mail
       where t.token_hash = extensions.digest(v_token, 'sha256');
    end if;
    queued := queued + 1;
  end loop;
  if queued = 0 then
    -- Nothing is kept: the campaign row goes with the refusal.
    raise exception 'Nobody in this segment may receive this mail now' using errcode = 'P0001', hint = 'no_recipients';
  end if;
  update public.mail_campaigns c set recipients = queued where c.id = v_campaign;

  perform private.log_activity('mail.sent', v_campaign,
    jsonb_build_object('kind', p_kind, 'segment', p_segment, 'competition_id', v_competition,
                       'subject', v_subject, 'recipients', queued));
  return private.mail_campaign_sent(v_campaign, false);
end;
$$;
comment on function public.admin_send_mail(text,text,uuid,text,text,uuid) is 'Admins: queues the mail for every recipient of the segment now (as admin_preview_mail counts them), one outbox row each, and records the campaign (kind, segment, subject, body, recipients, who sent it) and the audit row mail.sent in the same transaction; no_recipients when nobody may get it. p_request_id makes a repeated submit return the campaign already sent (already_sent true). The mail adapter delivers the rows.';
revoke all on function public.admin_send_mail(text,text,uuid,text,text,uuid) from public, anon, authenticated, service_role;
grant execute on function public.admin_send_mail(text,text,uuid,text,text,uuid) to authenticated;
grant execute on function public.admin_send_mail(text,text,uuid,text,text,uuid) to service_role;

create or replace function public.admin_list_mail_campaigns(p_limit integer default 20) returns setof public.mail_campaign
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_admin();
  return query
    select mc.*
      from (select c.id, c.created_at from public.mail_campaigns c
             order by c.created_at desc, c.id desc
             limit least(greatest(coalesce(p_limit, 20), 1), 100)) c
     cross join lateral private.mail_campaign_of(c.id) mc
     order by c.created_at desc, c.id desc;
end;
$$;
comment on function public.admin_list_mail_campaigns(integer) is 'Admins: the latest campaigns (at most p_limit, up to 100), newest first, each with its outbox rows counted by status.';
revoke all on function public.admin_list_mail_campaigns(integer) from public, anon, authenticated, service_role;
grant execute on function public.admin_list_mail_campaigns(integer) to authenticated;
grant execute on function public.admin_list_mail_campaigns(integer) to service_role;

create type public.mail_outbox_row as (id bigint, to_email text, to_user uuid, to_name text, kind text, subject text, status public.mail_status, transport public.mail_transport, attempts integer, error text, created_at timestamp with time zone, sent_at timestamp with time zone, campaign_id uuid);
comment on type public.mail_outbox_row is 'One outbox row as the mail screen shows it: recipient (and their name), kind, subject, status, transport, attempts, error and times.';

create type public.mail_outbox_page as (rows public.mail_outbox_row[], next_before bigint, campaign public.mail_campaign);
comment on type public.mail_outbox_page is 'One page of the mail outbox, newest first (next_before for the next page, or null on the last), and the campaign filtered by (or null).';

create or replace function public.admin_list_mail_outbox(p_campaign_id uuid default null, p_status text default null, p_before bigint default null, p_limit integer default 50) returns public.mail_outbox_page
language plpgsql stable security definer set search_path = '' as $$
declare
  page_size integer := least(greatest(coalesce(p_limit, 50), 1), 200);
  page_rows public.mail_outbox_row[];
  fetched integer;
  last_id bigint;
begin
  perform private.require_admin();
  if p_status is not null and p_status not in ('queued', 'sent', 'failed') then
    raise exception 'Status must be queued, sent or failed' using errcode = '22023', hint = 'invalid_input';
  end if;
  -- One row more than the page shows says whether there is an older page.
  select coalesce(array_agg(row(r.id, r.to_email, r.to_user, r.to_name, r.kind, r.subject, r.status, r.transport,
                                r.attempts, r.error, r.created_at, r.sent_at, r.campaign_id)::public.mail_outbox_row
                            order by r.id desc) filter (where r.n <= page_size), '{}'),
         count(*),
         max(r.id) filter (where r.n = page_size)
    into page_rows, fetched, last_id
    from (select m.id, m.to_email, m.to_user, p.name as to_name, m.kind, m.subject, m.status, m.transport,
                 m.attempts, m.error, m.created_at, m.sent_at, m.campaign_id,
                 row_number() over (order by m.id desc) as n
            from public.mail_outbox m
            left join public.profiles p on p.id = m.to_user
           where (p_campaign_id is null or m.campaign_id = p_campaign_id)
             and (p_status is null or m.status = p_status::public.mail_status)
             and (p_before is null or m.id < p_before)
           order by m.id desc
           limit page_size + 1) r;
  return row(page_rows,
             case when fetched > page_size then last_id end,
             case when p_campaign_id is not null then private.mail_campaign_of(p_campaign_id) end)::public.mail_outbox_page;
end;
$$;
comment on function public.admin_list_mail_outbox(uuid,text,bigint,integer) is 'Admins: one page of the mail outbox, newest first (keyset: pass next_before), optionally one campaign''s rows and one status (queued, sent, failed): recipient, kind, subject, status, transport, attempts, error and times. campaign is that campaign (null when unknown or not asked for).';
revoke all on function public.admin_list_mail_outbox(uuid,text,bigint,integer) from public, anon, authenticated, service_role;
grant execute on function public.admin_list_mail_outbox(uuid,text,bigint,integer) to authenticated;
grant execute on function public.admin_list_mail_outbox(uuid,text,bigint,integer) to service_role;

create or replace function private.marketing_consent_wording() returns text
language sql immutable set search_path = '' as $$
  select 'E-mail me about new competitions and results'::text
$$;
comment on function private.marketing_consent_wording() is 'The statement a player agrees to for marketing mail, as the sign-up form and the profile show it (lib/validation/auth.ts MARKETING_CONSENT_WORDING).';
revoke all on function private.marketing_consent_wording() from public, anon, authenticated, service_role;

create or replace function private.record_marketing_consent(p_user uuid, p_given boolean, p_source text,
  p_wording text default null) returns void
language plpgsql security definer set search_path = '' as $$
begin
  update public.profiles set marketing_consent = p_given, updated_at = now() where id = p_user;
  insert into public.marketing_consents (user_id, given, wording, source)
  values (p_user, p_given, coalesce(p_wording, private.marketing_consent_wording()), p_source::public.consent_source);
end;
$$;
comment on function private.record_marketing_consent(uuid,boolean,text,text) is 'Sets a player''s marketing consent and records the choice (time, wording, source) in public.marketing_consents.';
revoke all on function private.record_marketing_consent(uuid,boolean,text,text) from public, anon, authenticated, service_role;

create type public.marketing_consent as (given boolean, at timestamp with time zone, wording text, source public.consent_source);
comment on type public.marketing_consent is 'A player''s marketing consent now: given, and the time, wording and source of their last choice (null when none is recorded).';

create or replace function public.get_my_marketing_consent() returns public.marketing_consent
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  perform private.create_account_rows(uid);
  return private.marketing_consent_row(uid);
end;
$$;
comment on function public.get_my_marketing_consent() is 'The caller''s marketing consent: given, and the time, wording and source of their last choice.';
revoke all on function public.get_my_marketing_consent() from public, anon, authenticated, service_role;
grant execute on function public.get_my_marketing_consent() to authenticated;
grant execute on function public.get_my_marketing_consent() to service_role;

create or replace function public.set_my_marketing_consent(p_given boolean) returns public.marketing_consent
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  if p_given is null then
    raise exception 'Choose whether we may e-mail you about new competitions and results' using errcode = '22023', hint = 'invalid_input';
  end if;
  perform private.create_account_rows(uid);
  if p_given is distinct from (select p.marketing_consent from public.profiles p where p.id = uid) then
    perform private.record_marketing_consent(uid, p_given, 'profile');
  end if;
  return private.marketing_consent_row(uid);
end;
$$;
comment on function public.set_my_marketing_consent(boolean) is 'The caller gives (true) or withdraws (false) marketing consent in one call, recorded with time, wording and source profile; returns the consent now.';
revoke all on function public.set_my_marketing_consent(boolean) from public, anon, authenticated, service_role;
grant execute on function public.set_my_marketing_consent(boolean) to authenticated;
grant execute on function public.set_my_marketing_consent(boolean) to service_role;

create or replace function private.new_unsubscribe_token(p_user uuid) returns text
language plpgsql security definer set search_path = '' as $$
declare
  token text := encode(extensions.gen_random_bytes(32), 'hex');
begin
  insert into public.marketing_unsubscribe_tokens (token_hash, user_id)
  values (extensions.digest(token, 'sha256'), p_user);
  return token;
end;
$$;
comment on function private.new_unsubscribe_token(uuid) is 'A new unsubscribe token for the player (64 hex characters from the CSPRNG); only its SHA-256 is stored.';
revoke all on function private.new_unsubscribe_token(uuid) from public, anon, authenticated, service_role;

create or replace function private.unsubscribe_url(p_token text, p_one_click boolean) returns text
language sql stable security definer set search_path = '' as $$
  select (private.setting('site_url') #>> '{}')
         || case when p_one_click then '/api/unsubscribe?token=' else '/unsubscribe?token=' end || p_token
$$;
comment on function private.unsubscribe_url(text,boolean) is 'The unsubscribe address for a token: the page a person opens (/unsubscribe), or the one-click POST address of the List-Unsubscribe header (/api/unsubscribe).';
revoke all on function private.unsubscribe_url(text,boolean) from public, anon, authenticated, service_role;

create or replace function private.mail_render_with_link(p_kind text, p_name text, p_body text, p_unsubscribe_url text)
returns text
language sql stable security definer set search_path = '' as $$
  select 'Hello ' || coalesce(nullif(split_part(btrim(coalesce(p_name, '')), ' ', 1), ''), 'there') || E',\n\n'
         || btrim(replace(p_body, E'\r\n', E'\n')) || E'\n\n-- \n'
         || case when p_kind = 'marketing' then
              format(E'You get this because you chose "%s".\n'
                     'Unsubscribe in one click, no sign-in needed: %s\n'
                     'Or change your choice on your profile: %s/account/profile\n'
                     'Play within your means: %s/docs/responsible-play',
                     private.marketing_consent_wording(), p_unsubscribe_url,
                     private.setting('site_url') #>> '{}', private.setting('site_url') #>> '{}')
            else
              'This is a service message about your LabCash account or entries; it is sent whatever your marketing choice.'
            end
$$;
comment on function private.mail_render_with_link(text,text,text,text) is 'The text a recipient gets: a greeting with their first name, the message, and a footer (marketing: why they get it, their own one-click unsubscribe link and the profile; service: that it is not marketing).';
revoke all on function private.mail_render_with_link(text,text,text,text) from public, anon, authenticated, service_role;

create type public.marketing_unsubscribed as (unsubscribed boolean);
comment on type public.marketing_unsubscribed is 'An unsubscribe link was used: always true (a bad or used link raises).';

create or replace function public.unsubscribe_marketing(p_token text) returns public.marketing_unsubscribed
language plpgsql security definer set search_path = '' as $$
declare
  t public.marketing_unsubscribe_tokens%rowtype;
begin
  perform private.require_server();
  if p_token is null or p_token !~ '^[0-9a-f]{64}$' then
    raise exception 'This unsubscribe link is not valid' using errcode = '22023', hint = 'unsubscribe_link_invalid';
  end if;
  select * into t from public.marketing_unsubscribe_tokens k
   where k.token_hash = extensions.digest(p_token, 'sha256')
   for update;
  if not found then
    raise exception 'This unsubscribe link is not valid' using errcode = '22023', hint = 'unsubscribe_link_invalid';
  end if;
  if t.used_at is not null then
    raise exception 'This unsubscribe link has already been used' using errcode = 'P0001', hint = 'unsubscribe_link_used';
  end if;
  update public.marketing_unsubscribe_tokens k set used_at = now() where k.token_hash = t.token_hash;
  if coalesce((select p.marketing_consent from public.profiles p where p.id = t.user_id), false) then
    perform private.record_marketing_consent(t.user_id, false, 'unsubscribe_link');
  end if;
  perform private.log_activity('marketing.unsubscribed', t.user_id, jsonb_build_object('mail_id', t.mail_id));
  return row(true)::public.marketing_unsubscribed;
end;
$$;
comment on function public.unsubscribe_marketing(text) is 'Server: withdraws the marketing consent a mail''s unsubscribe token names, once (unsubscribe_link_used after), recorded with source unsubscribe_link and audited; unsubscribe_link_invalid for a token that is malformed or unknown. The page /unsubscribe and the one-click POST /api/unsubscribe call it without a session.';
revoke all on function public.unsubscribe_marketing(text) from public, anon, authenticated, service_role;
grant execute on function public.unsubscribe_marketing(text) to service_role;

create or replace function private.marketing_consent_row(p_user uuid) returns public.marketing_consent
language sql stable security definer set search_path = '' as $$
  select coalesce(p.marketing_consent, false), c.created_at, c.wording, c.source
  from public.profiles p
  left join lateral (select mc.created_at, mc.wording, mc.source from public.marketing_consents mc
                      where mc.user_id = p.id order by mc.id desc limit 1) c on true
  where p.id = p_user
$$;
comment on function private.marketing_consent_row(uuid) is 'A player''s marketing consent now: given, and when, on what wording and where the last choice was made (null when none is recorded).';
revoke all on function private.marketing_consent_row(uuid) from public, anon, authenticated, service_role;
