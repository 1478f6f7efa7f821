// The admin mail screen's calls return declared types now (docs/decisions/007, the fourth
// batch): admin_list_mail_campaigns (setof public.mail_campaign), admin_list_mail_outbox (public.mail_outbox_page),
// admin_preview_mail (public.mail_preview) and admin_send_mail (public.mail_campaign_sent). The old bodies
// (70-mail.sql before 20261201200401) and their helper run here word for word beside the new functions, through
// previews of every kind and segment, sends and a repeated send, an outbox paged and filtered with rows in every
// status, and both answers are compared as JSON.
import { beforeAll, describe, expect, it } from "vitest";
import { asUser, dbPerFile, eachPage } from "./support";

const db = dbPerFile();

// String.raw: the bodies' E'\r\n' literals keep their backslashes.
const OLD_BODIES = String.raw`
create schema old;
create function old.mail_campaign_json(p_id uuid) returns jsonb
language sql stable set search_path = '' as $$
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

create function old.admin_list_mail_campaigns(p_limit integer default 20) returns jsonb
language plpgsql stable set search_path = '' as $$
begin
  perform private.require_admin();
  return coalesce((select jsonb_agg(old.mail_campaign_json(c.id) order by c.created_at desc, c.id desc)
                     from (select c.id, c.created_at from public.mail_campaigns c
                            order by c.created_at desc, c.id desc
                            limit least(greatest(coalesce(p_limit, 20), 1), 100)) c), '[]'::jsonb);
end;
$$;

create function old.admin_list_mail_outbox(p_campaign_id uuid DEFAULT NULL::uuid, p_status text DEFAULT NULL::text, p_before bigint DEFAULT NULL::bigint, p_limit integer DEFAULT 50)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
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
             and (p_status is null or m.status = p_status::public.mail_status)
             and (p_before is null or m.id < p_before)
           order by m.id desc
           limit page_size + 1) r;
  return jsonb_build_object(
    'rows', page_rows,
    'next_before', case when fetched > page_size then last_id end,
    'campaign', case when p_campaign_id is not null then old.mail_campaign_json(p_campaign_id) end);
end;
$function$;

create function old.admin_preview_mail(p_kind text, p_segment text, p_competition_id uuid,
                                                     p_subject text, p_body text)
returns jsonb
language plpgsql set search_path = '' as $$
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

create function old.admin_send_mail(p_kind text, p_segment text, p_competition_id uuid, p_subject text, p_body text, p_request_id uuid DEFAULT NULL::uuid)
 RETURNS jsonb
 LANGUAGE plpgsql

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
    return old.mail_campaign_json(v_campaign) || jsonb_build_object('already_sent', true);
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
  return old.mail_campaign_json(v_campaign) || jsonb_build_object('already_sent', false);
end;
$function$;
`;

const BODY = "Our new competitions open on Friday. Good luck to everyone who enters!";

let admin: string;
beforeAll(async () => {
  await db().pg.exec(OLD_BODIES);
  admin = await db().createUser({ role: "super_admin", approved: true });
});

/** The old body's answer, as the admin. */
const asOld = (fn: string, args: unknown[]) => db().oldAnswer(asUser(admin), fn, args);

describe("the admin mail screen's calls as declared types", () => {
  it("answer previews, sends, campaigns and outbox pages what the jsonb versions did", async () => {
    const adult = (name: string, consent: boolean) =>
      db().createUser({
        name,
        approved: true,
        credits: 5,
        meta: { name, date_of_birth: "1990-05-17", marketing_consent: consent },
      });
    const keen = await adult("Kim Keen", true);
    await adult("Quin Quiet", false);
    const resting = await adult("Rory Resting", true);
    await db().call(asUser(resting), "take_break", { p_period: "1 week" });
    const competition = await db().createCompetition(admin);
    await db().call(asUser(keen), "enter_competition", { p_competition_id: competition, p_quantity: 1, p_answer: "4" });

    expect(await db().call(asUser(admin), "admin_list_mail_campaigns")).toEqual(
      await asOld("admin_list_mail_campaigns", [20]),
    );
    for (const [kind, segment, competitionId] of [
      ["marketing", "all_players", null],
      ["service", "all_players", null],
      ["marketing", "competition_entrants", competition],
      ["service", "no_recent_entry", null],
    ] as const) {
      const args = [kind, segment, competitionId, "  New competitions  ", `${BODY}\r\nSee you there.`] as const;
      const now = await db().call(asUser(admin), "admin_preview_mail", {
        p_kind: args[0],
        p_segment: args[1],
        p_competition_id: args[2],
        p_subject: args[3],
        p_body: args[4],
      });
      expect(now).toEqual(await asOld("admin_preview_mail", [...args]));
    }

    const request = "7f1d2b9e-3c4a-4e5f-8a6b-9c0d1e2f3a4b";
    const mail = ["marketing", "all_players", null, "New competitions", BODY, request] as const;
    const sendArgs = {
      p_kind: mail[0],
      p_segment: mail[1],
      p_competition_id: mail[2],
      p_subject: mail[3],
      p_body: mail[4],
      p_request_id: mail[5],
    };
    const sent = await db().call<{ id: string }>(asUser(admin), "admin_send_mail", sendArgs);
    expect(sent).toEqual({ ...((await asOld("mail_campaign_json", [sent.id])) as object), already_sent: false });
    const again = await db().call(asUser(admin), "admin_send_mail", sendArgs);
    expect(again).toEqual(await asOld("admin_send_mail", [...mail]));
    expect(again).toMatchObject({ already_sent: true });
    const entrants = await db().call<{ id: string }>(asUser(admin), "admin_send_mail", {
      p_kind: "service",
      p_segment: "competition_entrants",
      p_competition_id: competition,
      p_subject: "Your competition",
      p_body: BODY,
    });
    // Rows in every status, and a campaign whose sender has gone.
    await db().sql(
      `update public.mail_outbox set status = 'sent', sent_at = now(), transport = 'outbox', attempts = 1
        where id = (select min(id) from public.mail_outbox where campaign_id = $1)`,
      [sent.id],
    );
    await db().sql(
      `update public.mail_outbox set status = 'failed', error = 'Mailbox full', attempts = 3
        where id = (select max(id) from public.mail_outbox where campaign_id = $1)`,
      [entrants.id],
    );

    expect(await db().call(asUser(admin), "admin_list_mail_campaigns", { p_limit: 1 })).toEqual(
      await asOld("admin_list_mail_campaigns", [1]),
    );
    expect(await db().call(asUser(admin), "admin_list_mail_campaigns")).toEqual(
      await asOld("admin_list_mail_campaigns", [20]),
    );
    const unknown = "00000000-0000-4000-8000-00000000dead";
    for (const [campaignId, status] of [
      [null, null],
      [sent.id, null],
      [entrants.id, "failed"],
      [null, "sent"],
      [null, "queued"],
      [unknown, null],
    ] as const) {
      await eachPage<number>(async (before) => {
        const now: { next_before: number | null } = await db().call(asUser(admin), "admin_list_mail_outbox", {
          p_campaign_id: campaignId,
          p_status: status,
          p_before: before,
          p_limit: 2,
        });
        expect(now).toEqual(await asOld("admin_list_mail_outbox", [campaignId, status, before, 2]));
        return now.next_before;
      });
    }
  });
});
