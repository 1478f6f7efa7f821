-- ============================================================================
-- Marketing consent (issue 22 item 1; PECR regulation 22, code of practice 1.11).
--
-- Until now profiles.email_notifications defaulted to true: sign-up never asked, yet every new
-- player was counted as agreeing to marketing mail, their profile box came ticked and admin
-- marketing sends reached them. A pre-ticked box is not consent.
--
-- Now:
--   * consent is false unless given: the column defaults to false, and the sign-up trigger sets it
--     from the sign-up form's unticked box (user metadata marketing_consent, JSON true only);
--   * every choice is recorded with its time, the wording it was about and where it was made
--     (public.marketing_consents, one row per change: sign-up, profile, unsubscribe link, or this
--     migration); profiles.email_notifications stays the current choice the mail segments read;
--   * every existing account is set to not consented: none was ever asked (the box was ticked for
--     them), so none can be shown to have agreed. A player who wants the mail ticks it again;
--   * the profile gives or withdraws it in one call (set_my_marketing_consent);
--   * every marketing mail carries a link of its own (a random 256-bit token, only its SHA-256
--     kept) that unsubscribes without signing in, once: the page /unsubscribe?token=… posts it, and
--     the mail's List-Unsubscribe header (RFC 8058 one-click, /api/unsubscribe) carries the same
--     token; both reach SQL through the server's secret key only (unsubscribe_marketing).
-- Service mail (receipts, draws, complaints, approvals) is not marketing and is unchanged.
-- Works on hosted Supabase (PostgreSQL 15/17) and on the embedded PGlite.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- The current choice, and its history
-- ----------------------------------------------------------------------------
alter table public.profiles alter column email_notifications set default false;
comment on column public.profiles.email_notifications is 'The player''s current marketing consent ("E-mail me about new competitions and results"): false unless they gave it; every change is recorded in public.marketing_consents (private.record_marketing_consent).';

create table public.marketing_consents (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  given boolean not null,
  wording text not null check (char_length(wording) between 1 and 500),
  source text not null check (source in ('sign_up', 'profile', 'unsubscribe_link', 'not_asked')),
  created_at timestamptz not null default now()
);
alter table public.marketing_consents enable row level security;
create index marketing_consents_user_idx on public.marketing_consents (user_id, id desc);
comment on table public.marketing_consents is 'Every marketing consent choice (PECR, code of practice 1.11): who, given or withdrawn, when, the wording it was about and where it was made (sign_up, profile, unsubscribe_link, or not_asked: set off by a migration for an account that was never asked). Written only by private.record_marketing_consent.';

-- Read and written through the functions below only.
revoke all on table public.marketing_consents from anon, authenticated;
revoke all on sequence public.marketing_consents_id_seq from anon, authenticated;
grant all on table public.marketing_consents to service_role;

create function private.marketing_consent_wording() returns text
language sql immutable set search_path = '' as $$
  select 'E-mail me about new competitions and results'::text
$$;
comment on function private.marketing_consent_wording() is 'The statement a player agrees to for marketing mail, as the sign-up form and the profile show it (lib/validation/auth.ts MARKETING_CONSENT_WORDING).';

create function private.record_marketing_consent(p_user uuid, p_given boolean, p_source text,
                                                 p_wording text default null)
returns void
language plpgsql security definer set search_path = '' as $$
begin
  update public.profiles set email_notifications = p_given, updated_at = now() where id = p_user;
  insert into public.marketing_consents (user_id, given, wording, source)
  values (p_user, p_given, coalesce(p_wording, private.marketing_consent_wording()), p_source);
end;
$$;
comment on function private.record_marketing_consent(uuid, boolean, text, text) is 'Sets a player''s marketing consent and records the choice (time, wording, source) in public.marketing_consents.';

create function private.marketing_consent_json(p_user uuid) returns jsonb
language sql stable security definer set search_path = '' as $$
  select jsonb_build_object(
    'given', coalesce(p.email_notifications, false),
    'at', c.created_at,
    'wording', c.wording,
    'source', c.source)
  from public.profiles p
  left join lateral (select mc.created_at, mc.wording, mc.source from public.marketing_consents mc
                      where mc.user_id = p.id order by mc.id desc limit 1) c on true
  where p.id = p_user
$$;
comment on function private.marketing_consent_json(uuid) is 'A player''s marketing consent now: given, and when, on what wording and where the last choice was made (null when none is recorded).';

-- Every account that exists now was never asked: the box came ticked. Not consented, recorded.
insert into public.marketing_consents (user_id, given, wording, source)
select p.id, false,
       'Never asked: marketing e-mail set off by migration 20261127110000 (the sign-up form had no consent choice and the profile box came ticked)',
       'not_asked'
  from public.profiles p
  join auth.users u on u.id = p.id;
update public.profiles set email_notifications = false where email_notifications;

-- ----------------------------------------------------------------------------
-- Sign-up: the form's unticked box decides (body as in 20261126110000 but for the consent)
-- ----------------------------------------------------------------------------
create or replace function private.handle_new_user() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  given text := new.raw_user_meta_data ->> 'date_of_birth';
  dob date;
begin
  if given is null or btrim(given) = '' then
    raise exception 'A date of birth is required to join LabCash' using errcode = '22023', hint = 'date_of_birth_required';
  end if;
  begin
    dob := case when given ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' then given::date end;
  exception when data_exception then
    dob := null; -- 1990-02-31, year 0000
  end;
  if dob is null or dob < (current_date - interval '120 years')::date then
    raise exception 'Date of birth is not a valid date' using errcode = '22007', hint = 'invalid_input';
  end if;
  if dob > (current_date - interval '18 years')::date then
    raise exception 'You must be 18 or over to join LabCash' using errcode = '22023', hint = 'under_18';
  end if;
  perform private.create_account_rows(new.id);
  -- Consent only from the sign-up form's box, ticked (JSON true); anything else is no consent. A user
  -- made without the form (admin API, seed, script) was not asked, and is recorded so.
  if new.raw_user_meta_data ? 'marketing_consent' then
    perform private.record_marketing_consent(new.id, new.raw_user_meta_data -> 'marketing_consent' = 'true'::jsonb, 'sign_up');
  else
    perform private.record_marketing_consent(new.id, false, 'not_asked',
      'Not asked: the account was made without the sign-up form');
  end if;
  perform private.log_activity('user.signed_up', new.id, jsonb_build_object('email', new.email));
  return new;
end;
$$;
comment on function private.handle_new_user() is 'Trigger: a new auth user gets a profile and account data and their marketing consent from the sign-up form (false unless its box was ticked, recorded); a user without a date of birth (YYYY-MM-DD, at most 120 years ago) is refused (date_of_birth_required, invalid_input), as is one under 18 (under_18), whoever creates them.';

-- ----------------------------------------------------------------------------
-- The player's own choice
-- ----------------------------------------------------------------------------
create or replace function public.update_my_profile(
  p_name text default null, p_email_notifications boolean default null, p_town text default null
) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  if p_name is not null and char_length(trim(p_name)) not between 1 and 100 then
    raise exception 'Name must be between 1 and 100 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  if p_town is not null and char_length(trim(p_town)) > 60 then
    raise exception 'Town must be at most 60 characters' using errcode = '22023', hint = 'invalid_input';
  end if;
  perform private.create_account_rows(uid);
  update public.profiles
     set name = coalesce(trim(p_name), name),
         -- null leaves the town alone; an empty string clears it
         town = case when p_town is null then town else nullif(trim(p_town), '') end,
         updated_at = now()
   where id = uid;
  -- A changed marketing choice is recorded like every other.
  if p_email_notifications is not null
     and p_email_notifications is distinct from (select p.email_notifications from public.profiles p where p.id = uid) then
    perform private.record_marketing_consent(uid, p_email_notifications, 'profile');
  end if;
  return private.account_json(uid);
end;
$$;
comment on function public.update_my_profile(text, boolean, text) is 'Updates the caller''s name, marketing choice (recorded when it changes) and town (an empty town clears it); returns the merged account.';

create function public.get_my_marketing_consent() returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  perform private.create_account_rows(uid);
  return private.marketing_consent_json(uid);
end;
$$;
comment on function public.get_my_marketing_consent() is 'The caller''s marketing consent: given, and the time, wording and source of their last choice.';
grant execute on function public.get_my_marketing_consent() to authenticated;

create function public.set_my_marketing_consent(p_given boolean) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
begin
  if p_given is null then
    raise exception 'Choose whether we may e-mail you about new competitions and results' using errcode = '22023', hint = 'invalid_input';
  end if;
  perform private.create_account_rows(uid);
  if p_given is distinct from (select p.email_notifications from public.profiles p where p.id = uid) then
    perform private.record_marketing_consent(uid, p_given, 'profile');
  end if;
  return private.marketing_consent_json(uid);
end;
$$;
comment on function public.set_my_marketing_consent(boolean) is 'The caller gives (true) or withdraws (false) marketing consent in one call, recorded with time, wording and source profile; returns the consent now.';
grant execute on function public.set_my_marketing_consent(boolean) to authenticated;

-- ----------------------------------------------------------------------------
-- Unsubscribe links: one random token per marketing mail, only its hash kept
-- ----------------------------------------------------------------------------
alter table public.mail_outbox add column list_unsubscribe text;
comment on column public.mail_outbox.list_unsubscribe is 'Marketing mail: the one-click unsubscribe address for its List-Unsubscribe header (RFC 8058); null for service mail.';

create table public.marketing_unsubscribe_tokens (
  token_hash bytea primary key check (octet_length(token_hash) = 32),
  user_id uuid not null references auth.users (id) on delete cascade,
  mail_id bigint references public.mail_outbox (id) on delete cascade,
  created_at timestamptz not null default now(),
  used_at timestamptz
);
alter table public.marketing_unsubscribe_tokens enable row level security;
create index marketing_unsubscribe_tokens_user_idx on public.marketing_unsubscribe_tokens (user_id);
create index marketing_unsubscribe_tokens_mail_idx on public.marketing_unsubscribe_tokens (mail_id);
comment on table public.marketing_unsubscribe_tokens is 'The unsubscribe link of each marketing mail: the SHA-256 of its random token (the token itself is only in the mail), whose consent it withdraws, and when it was used (once).';

revoke all on table public.marketing_unsubscribe_tokens from anon, authenticated;
grant all on table public.marketing_unsubscribe_tokens to service_role;

create function private.new_unsubscribe_token(p_user uuid) returns text
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

create function private.unsubscribe_url(p_token text, p_one_click boolean) returns text
language sql stable security definer set search_path = '' as $$
  select (private.setting('site_url') #>> '{}')
         || case when p_one_click then '/api/unsubscribe?token=' else '/unsubscribe?token=' end || p_token
$$;
comment on function private.unsubscribe_url(text, boolean) is 'The unsubscribe address for a token: the page a person opens (/unsubscribe), or the one-click POST address of the List-Unsubscribe header (/api/unsubscribe).';

create function private.mail_render_with_link(p_kind text, p_name text, p_body text, p_unsubscribe_url text)
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
comment on function private.mail_render_with_link(text, text, text, text) is 'The text a recipient gets: a greeting with their first name, the message, and a footer (marketing: why they get it, their own one-click unsubscribe link and the profile; service: that it is not marketing).';

create or replace function public.admin_preview_mail(p_kind text, p_segment text, p_competition_id uuid,
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
    'rendered', private.mail_render_with_link(p_kind, coalesce(sample_name, 'Alex Example'), p_body,
                                              private.unsubscribe_url('(their own link)', false)));
end;
$$;

create or replace function public.admin_send_mail(p_kind text, p_segment text, p_competition_id uuid,
                                                  p_subject text, p_body text, p_request_id uuid default null)
returns jsonb
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
  values (p_kind, p_segment, v_competition, v_subject, v_body, admin_id, p_request_id)
  on conflict (request_id) do nothing
  returning id into v_campaign;
  if v_campaign is null then
    select c.id into v_campaign from public.mail_campaigns c where c.request_id = p_request_id;
    return private.mail_campaign_json(v_campaign) || jsonb_build_object('already_sent', true);
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
  return private.mail_campaign_json(v_campaign) || jsonb_build_object('already_sent', false);
end;
$$;

-- ----------------------------------------------------------------------------
-- Delivery: the adapter needs the List-Unsubscribe address (a new result column)
-- ----------------------------------------------------------------------------
drop function public.claim_mail_batch(integer);
create function public.claim_mail_batch(p_limit integer default 20)
returns table (id bigint, to_email text, kind text, subject text, body_text text, list_unsubscribe text)
language plpgsql security definer set search_path = '' as $$
begin
  if not private.is_service_role() then
    raise exception 'Access denied: server only' using errcode = '42501', hint = 'server_only';
  end if;
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
revoke execute on function public.claim_mail_batch(integer) from public, anon, authenticated;
grant execute on function public.claim_mail_batch(integer) to service_role;

-- ----------------------------------------------------------------------------
-- Unsubscribing without signing in (the server, for the page and the one-click POST)
-- ----------------------------------------------------------------------------
create function public.unsubscribe_marketing(p_token text) returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  t public.marketing_unsubscribe_tokens%rowtype;
begin
  if not private.is_service_role() then
    raise exception 'Access denied: server only' using errcode = '42501', hint = 'server_only';
  end if;
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
  if coalesce((select p.email_notifications from public.profiles p where p.id = t.user_id), false) then
    perform private.record_marketing_consent(t.user_id, false, 'unsubscribe_link');
  end if;
  perform private.log_activity('marketing.unsubscribed', t.user_id, jsonb_build_object('mail_id', t.mail_id));
  return jsonb_build_object('unsubscribed', true);
end;
$$;
comment on function public.unsubscribe_marketing(text) is 'Server: withdraws the marketing consent a mail''s unsubscribe token names, once (unsubscribe_link_used after), recorded with source unsubscribe_link and audited; unsubscribe_link_invalid for a token that is malformed or unknown. The page /unsubscribe and the one-click POST /api/unsubscribe call it without a session.';
revoke execute on function public.unsubscribe_marketing(text) from public, anon, authenticated;
grant execute on function public.unsubscribe_marketing(text) to service_role;
