-- ============================================================================
-- Admin mail (issue 11 item 7): compose to a segment of players, preview the
-- rendered message and how many it reaches, send (one outbox row per recipient
-- in one transaction, recorded as a campaign and audited), and read the outbox.
-- Delivery stays with the mail adapter (lib/mail/adapter.ts, claim_mail_batch).
--
-- Who may get what (code of practice 1.1, 1.5, 1.11):
--   every segment: players (role user), approved by an admin, not deleted, with
--   an e-mail and a date of birth on file at least 18 years ago;
--   marketing: only those who consented (profiles.email_notifications) and are
--   not on a break, self-excluded or closed (private.may_receive_marketing);
--   service notices (about a competition they entered, their account) go to the
--   whole segment, players on a break included.
-- Admins only; every function checks with private.require_admin().
-- Works on hosted Supabase (PostgreSQL 15/17) and on the embedded PGlite.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Campaigns, and the outbox rows each one queued
-- ----------------------------------------------------------------------------
create table public.mail_campaigns (
  id uuid primary key default gen_random_uuid(),
  kind text not null check (kind in ('marketing', 'service')),
  segment text not null check (segment in ('all_players', 'competition_entrants', 'no_recent_entry')),
  competition_id uuid references public.competitions (id) on delete restrict,
  subject text not null check (char_length(subject) between 3 and 120),
  body_text text not null check (char_length(body_text) between 20 and 5000),
  recipients integer not null default 0 check (recipients >= 0),
  sent_by uuid references auth.users (id) on delete set null,
  request_id uuid unique,
  created_at timestamptz not null default now(),
  check ((segment = 'competition_entrants') = (competition_id is not null))
);
alter table public.mail_campaigns enable row level security;
create index mail_campaigns_created_idx on public.mail_campaigns (created_at desc, id desc);
create index mail_campaigns_competition_idx on public.mail_campaigns (competition_id);
create index mail_campaigns_sent_by_idx on public.mail_campaigns (sent_by);
comment on table public.mail_campaigns is 'One mail an admin sent to a segment of players: who sent what (subject and body as written), of which kind, to which segment, and to how many; its outbox rows carry campaign_id.';
comment on column public.mail_campaigns.request_id is 'The compose screen''s key for one send: a second submit of the same preview returns the campaign already sent instead of mailing everyone twice.';

-- Read and written through the functions below only.
revoke all on table public.mail_campaigns from anon, authenticated;
grant all on table public.mail_campaigns to service_role;

alter table public.mail_outbox add column campaign_id uuid references public.mail_campaigns (id) on delete restrict;
-- The outbox filtered by campaign, newest first (and the foreign key's index).
create index mail_outbox_campaign_idx on public.mail_outbox (campaign_id, id desc);
comment on column public.mail_outbox.campaign_id is 'The admin campaign that queued this row; null for mail the app sends itself (receipts, results, approvals).';

-- ----------------------------------------------------------------------------
-- Helpers: checks, the segment, the rendered message
-- ----------------------------------------------------------------------------
create function private.mail_compose_check(p_kind text, p_segment text, p_competition_id uuid,
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
      raise exception 'Competition not found' using errcode = 'P0001', hint = 'competition_not_found';
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
comment on function private.mail_compose_check(text, text, uuid, text, text) is 'Refuses a bad compose form: the kind (marketing or service), the segment, the competition of an entrants segment (required, must exist), a subject of 3-120 characters on one line and a message of 20-5,000 characters (both trimmed).';

create function private.mail_segment_members(p_segment text, p_competition_id uuid)
returns table (user_id uuid, name text, email text, consented boolean)
language sql stable security definer set search_path = '' as $$
  select a.id, p.name, u.email::text, p.email_notifications
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
comment on function private.mail_segment_members(text, uuid) is 'The players a segment names now (all_players; competition_entrants of p_competition_id; no_recent_entry: no entry in the last 30 days), each approved, not deleted, with an e-mail and a date of birth 18 or more years ago; consented is their marketing choice.';

create function private.mail_recipients(p_kind text, p_segment text, p_competition_id uuid)
returns table (user_id uuid, name text, email text)
language sql security definer set search_path = '' as $$
  select m.user_id, m.name, m.email
    from private.mail_segment_members(p_segment, p_competition_id) m
   -- Marketing only with consent and never during a break, self-exclusion or after closure.
   where p_kind = 'service' or (m.consented and private.may_receive_marketing(m.user_id))
$$;
comment on function private.mail_recipients(text, text, uuid) is 'Who a mail of kind p_kind to the segment reaches now: the whole segment for a service notice; for marketing, only members private.may_receive_marketing allows (consent, no break, exclusion or closure).';

create function private.mail_render(p_kind text, p_name text, p_body text) returns text
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
comment on function private.mail_render(text, text, text) is 'The text a recipient gets: a greeting with their first name, the message, and a footer (marketing: why they get it and how to stop; service: that it is not marketing).';

create function private.mail_campaign_json(p_id uuid) returns jsonb
language sql stable security definer set search_path = '' as $$
  select jsonb_build_object(
    'id', c.id,
    'kind', c.kind,
    'segment', c.segment,
    'competition', case when cp.id is not null then jsonb_build_object('id', cp.id, 'title', cp.title) end,
    'subject', c.subject,
    'body_text', c.body_text,
    'recipients', c.recipients,
    'queued', (select count(*) from public.mail_outbox m where m.campaign_id = c.id and m.status = 'queued'),
    'sent', (select count(*) from public.mail_outbox m where m.campaign_id = c.id and m.status = 'sent'),
    'failed', (select count(*) from public.mail_outbox m where m.campaign_id = c.id and m.status = 'failed'),
    'sent_by', case when c.sent_by is not null
                    then jsonb_build_object('id', c.sent_by, 'name', coalesce(sp.name, 'Deleted user')) end,
    'created_at', c.created_at)
  from public.mail_campaigns c
  left join public.competitions cp on cp.id = c.competition_id
  left join public.profiles sp on sp.id = c.sent_by
  where c.id = p_id
$$;
comment on function private.mail_campaign_json(uuid) is 'One campaign as the mail screen shows it: kind, segment, competition, subject and body, recipients, and its outbox rows counted by status.';

-- ----------------------------------------------------------------------------
-- Preview and send
-- ----------------------------------------------------------------------------
create function public.admin_preview_mail(p_kind text, p_segment text, p_competition_id uuid,
                                          p_subject text, p_body text)
returns jsonb
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
  return jsonb_build_object(
    'kind', p_kind,
    'segment', p_segment,
    'competition', (select jsonb_build_object('id', c.id, 'title', c.title)
                      from public.competitions c where c.id = v_competition),
    'members', members,
    'recipients', recipients,
    'held_back', jsonb_build_object('no_consent', case when p_kind = 'marketing' then no_consent else 0 end,
                                    'protected', case when p_kind = 'marketing' then blocked else 0 end),
    'subject', btrim(p_subject),
    'body_text', btrim(replace(p_body, E'\r\n', E'\n')),
    'sample', case when sample_email is not null then jsonb_build_object('name', sample_name, 'email', sample_email) end,
    'rendered', private.mail_render(p_kind, coalesce(sample_name, 'Alex Example'), p_body));
end;
$$;
comment on function public.admin_preview_mail(text, text, uuid, text, text) is 'Admins: what a mail would do, without sending: members (the segment now), recipients (who it reaches: all members for a service notice; for marketing, without those who did not consent or are on a break, excluded or closed: held_back), and the message rendered as the first recipient (by name) would get it. Checks the form as admin_send_mail does.';
grant execute on function public.admin_preview_mail(text, text, uuid, text, text) to authenticated;

create function public.admin_send_mail(p_kind text, p_segment text, p_competition_id uuid,
                                       p_subject text, p_body text, p_request_id uuid default null)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  admin_id uuid := private.require_admin();
  v_competition uuid := case when p_segment = 'competition_entrants' then p_competition_id end;
  v_subject text;
  v_body text;
  v_campaign uuid;
  queued integer;
begin
  perform private.mail_compose_check(p_kind, p_segment, v_competition, p_subject, p_body);
  v_subject := btrim(p_subject);
  v_body := btrim(replace(p_body, E'\r\n', E'\n'));

  -- A second submit of the same compose screen (double click, resubmitted page) sends nothing more.
  insert into public.mail_campaigns (kind, segment, competition_id, subject, body_text, sent_by, request_id)
  values (p_kind, p_segment, v_competition, v_subject, v_body, admin_id, p_request_id)
  on conflict (request_id) do nothing
  returning id into v_campaign;
  if v_campaign is null then
    select c.id into v_campaign from public.mail_campaigns c where c.request_id = p_request_id;
    return private.mail_campaign_json(v_campaign) || jsonb_build_object('already_sent', true);
  end if;

  insert into public.mail_outbox (to_email, to_user, kind, subject, body_text, campaign_id)
  select r.email, r.user_id, p_kind, v_subject, private.mail_render(p_kind, r.name, v_body), v_campaign
    from private.mail_recipients(p_kind, p_segment, v_competition) r
   order by r.user_id;
  get diagnostics queued = row_count;
  if queued = 0 then
    -- Nothing is kept: the campaign row goes with the refusal.
    raise exception 'Nobody in this segment may receive this mail now' using errcode = 'P0001', hint = 'no_recipients';
  end if;
  update public.mail_campaigns c set recipients = queued where c.id = v_campaign;

  perform private.log_activity('mail.sent', v_campaign,
    jsonb_build_object('kind', p_kind, 'segment', p_segment, 'competition_id', v_competition,
                       'subject', v_subject, 'recipients', queued));
  return private.mail_campaign_json(v_campaign) || jsonb_build_object('already_sent', false);
end;
$$;
comment on function public.admin_send_mail(text, text, uuid, text, text, uuid) is 'Admins: queues the mail for every recipient of the segment now (as admin_preview_mail counts them), one outbox row each, and records the campaign (kind, segment, subject, body, recipients, who sent it) and the audit row mail.sent in the same transaction; no_recipients when nobody may get it. p_request_id makes a repeated submit return the campaign already sent (already_sent true). The mail adapter delivers the rows.';
grant execute on function public.admin_send_mail(text, text, uuid, text, text, uuid) to authenticated;

-- ----------------------------------------------------------------------------
-- Campaigns and the outbox
-- ----------------------------------------------------------------------------
create function public.admin_list_mail_campaigns(p_limit integer default 20) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
begin
  perform private.require_admin();
  return coalesce((select jsonb_agg(private.mail_campaign_json(c.id) order by c.created_at desc, c.id desc)
                     from (select c.id, c.created_at from public.mail_campaigns c
                            order by c.created_at desc, c.id desc
                            limit least(greatest(coalesce(p_limit, 20), 1), 100)) c), '[]'::jsonb);
end;
$$;
comment on function public.admin_list_mail_campaigns(integer) is 'Admins: the latest campaigns (at most p_limit, up to 100), newest first, each with its outbox rows counted by status.';
grant execute on function public.admin_list_mail_campaigns(integer) to authenticated;

create function public.admin_list_mail_outbox(p_campaign_id uuid default null, p_status text default null,
                                              p_before bigint default null, p_limit integer default 50)
returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  page_size integer := least(greatest(coalesce(p_limit, 50), 1), 200);
  page_rows jsonb;
  fetched integer;
  last_id bigint;
begin
  perform private.require_admin();
  if p_status is not null and p_status not in ('queued', 'sent', 'failed') then
    raise exception 'Status must be queued, sent or failed' using errcode = '22023', hint = 'invalid_input';
  end if;
  -- One row more than the page shows says whether there is an older page.
  select coalesce(jsonb_agg(to_jsonb(r) - 'n' order by r.id desc) filter (where r.n <= page_size), '[]'::jsonb),
         count(*),
         max(r.id) filter (where r.n = page_size)
    into page_rows, fetched, last_id
    from (select m.id, m.to_email, m.to_user, p.name as to_name, m.kind, m.subject, m.status, m.transport,
                 m.attempts, m.error, m.created_at, m.sent_at, m.campaign_id,
                 row_number() over (order by m.id desc) as n
            from public.mail_outbox m
            left join public.profiles p on p.id = m.to_user
           where (p_campaign_id is null or m.campaign_id = p_campaign_id)
             and (p_status is null or m.status = p_status)
             and (p_before is null or m.id < p_before)
           order by m.id desc
           limit page_size + 1) r;
  return jsonb_build_object(
    'rows', page_rows,
    'next_before', case when fetched > page_size then last_id end,
    'campaign', case when p_campaign_id is not null then private.mail_campaign_json(p_campaign_id) end);
end;
$$;
comment on function public.admin_list_mail_outbox(uuid, text, bigint, integer) is 'Admins: one page of the mail outbox, newest first (keyset: pass next_before), optionally one campaign''s rows and one status (queued, sent, failed): recipient, kind, subject, status, transport, attempts, error and times. campaign is that campaign (null when unknown or not asked for).';
grant execute on function public.admin_list_mail_outbox(uuid, text, bigint, integer) to authenticated;
