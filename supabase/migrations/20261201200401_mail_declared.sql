-- mail_declared: written by `npm run db:migration` from supabase/schemas. Review it before committing.

drop function private.mail_campaign_json(uuid);

drop function public.admin_list_mail_campaigns(integer);

drop function public.admin_list_mail_outbox(uuid,text,bigint,integer);

drop function public.admin_preview_mail(text,text,uuid,text,text);

drop function public.admin_send_mail(text,text,uuid,text,text,uuid);

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

create or replace function private.mail_campaign_sent(p_id uuid, p_already_sent boolean) returns public.mail_campaign_sent
language sql stable security definer set search_path = '' as $$
  select c.id, c.kind, c.segment, c.competition, c.subject, c.body_text, c.recipients, c.queued, c.sent, c.failed,
         c.sent_by, c.created_at, p_already_sent
    from private.mail_campaign_of(p_id) c
$$;
comment on function private.mail_campaign_sent(uuid,boolean) is 'A campaign admin_send_mail answers: private.mail_campaign_of''s fields and whether an earlier submit of the same request had sent it.';
revoke all on function private.mail_campaign_sent(uuid,boolean) from public, anon, authenticated, service_role;

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

create or replace function public.admin_send_mail(p_kind text, p_segment text, p_competition_id uuid, p_subject text, p_body text, p_request_id uuid DEFAULT NULL::uuid)
 RETURNS public.mail_campaign_sent
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$;
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

create or replace function public.admin_list_mail_outbox(p_campaign_id uuid DEFAULT NULL::uuid, p_status text DEFAULT NULL::text, p_before bigint DEFAULT NULL::bigint, p_limit integer DEFAULT 50)
 RETURNS public.mail_outbox_page
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$;
comment on function public.admin_list_mail_outbox(uuid,text,bigint,integer) is 'Admins: one page of the mail outbox, newest first (keyset: pass next_before), optionally one campaign''s rows and one status (queued, sent, failed): recipient, kind, subject, status, transport, attempts, error and times. campaign is that campaign (null when unknown or not asked for).';
revoke all on function public.admin_list_mail_outbox(uuid,text,bigint,integer) from public, anon, authenticated, service_role;
grant execute on function public.admin_list_mail_outbox(uuid,text,bigint,integer) to authenticated;
grant execute on function public.admin_list_mail_outbox(uuid,text,bigint,integer) to service_role;
