-- ============================================================================
-- Mail outbox: every e-mail the app sends, queued by the functions that decide
-- to send it and delivered by the server's mail adapter (lib/mail/adapter.ts):
-- SMTP when configured, otherwise the outbox is the inbox.
-- Works on hosted Supabase (PostgreSQL 15/17) and on the embedded PGlite.
-- ============================================================================

-- ----------------------------------------------------------------------------
-- Table
-- ----------------------------------------------------------------------------
create table public.mail_outbox (
  id bigint generated always as identity primary key,
  to_email text not null,
  to_user uuid references auth.users (id) on delete set null,
  kind text not null,
  subject text not null,
  body_text text not null,
  status text not null default 'queued' check (status in ('queued', 'sent', 'failed')),
  error text,
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  transport text check (transport in ('smtp', 'outbox')),
  claimed_at timestamptz,
  attempts integer not null default 0
);
alter table public.mail_outbox enable row level security;
create index mail_outbox_queued_idx on public.mail_outbox (id) where status = 'queued';
create index mail_outbox_to_user_idx on public.mail_outbox (to_user);
comment on table public.mail_outbox is 'Mail the app sends; delivered by the mail adapter (SMTP when configured), kept here either way.';
comment on column public.mail_outbox.transport is 'How a sent row was delivered: smtp, or outbox (no SMTP configured: the outbox is the inbox).';

-- Admins read it; rows are written only by the functions below.
revoke all on table public.mail_outbox from anon, authenticated;
revoke all on sequence public.mail_outbox_id_seq from anon, authenticated;
grant select on table public.mail_outbox to authenticated;
grant all on table public.mail_outbox to service_role;

create policy "mail outbox: admins" on public.mail_outbox
  for select to authenticated using ((select public.is_admin()));

-- ----------------------------------------------------------------------------
-- Queueing
-- ----------------------------------------------------------------------------
create function private.queue_mail(p_user uuid, p_kind text, p_subject text, p_body text) returns void
language sql security definer set search_path = '' as $$
  insert into public.mail_outbox (to_email, to_user, kind, subject, body_text)
  select u.email, u.id, p_kind, p_subject, p_body from auth.users u where u.id = p_user and u.email is not null
$$;
comment on function private.queue_mail(uuid, text, text, text) is 'Queues one e-mail to a user.';

-- ----------------------------------------------------------------------------
-- Delivery (the server's mail adapter, secret key only)
-- ----------------------------------------------------------------------------
create function public.claim_mail_batch(p_limit integer default 20)
returns table (id bigint, to_email text, kind text, subject text, body_text text)
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
    returning m.id, m.to_email, m.kind, m.subject, m.body_text;
end;
$$;
comment on function public.claim_mail_batch(integer) is 'Server: claims up to p_limit queued mails for delivery (five-minute claim).';
grant execute on function public.claim_mail_batch(integer) to service_role;

create function public.mark_mail_sent(p_id bigint, p_transport text) returns void
language plpgsql security definer set search_path = '' as $$
begin
  if not private.is_service_role() then
    raise exception 'Access denied: server only' using errcode = '42501', hint = 'server_only';
  end if;
  if p_transport not in ('smtp', 'outbox') then
    raise exception 'Transport must be smtp or outbox' using errcode = '22023', hint = 'invalid_input';
  end if;
  update public.mail_outbox
     set status = 'sent', sent_at = now(), transport = p_transport, error = null
   where id = p_id and status = 'queued';
end;
$$;
comment on function public.mark_mail_sent(bigint, text) is 'Server: marks a claimed mail delivered (by SMTP, or kept in the outbox when no SMTP is configured).';
grant execute on function public.mark_mail_sent(bigint, text) to service_role;

create function public.mark_mail_failed(p_id bigint, p_error text) returns void
language plpgsql security definer set search_path = '' as $$
begin
  if not private.is_service_role() then
    raise exception 'Access denied: server only' using errcode = '42501', hint = 'server_only';
  end if;
  -- Five attempts, then the row is failed for an admin to see.
  update public.mail_outbox
     set status = case when attempts >= 5 then 'failed' else 'queued' end,
         claimed_at = null, error = left(p_error, 1000)
   where id = p_id and status = 'queued';
end;
$$;
comment on function public.mark_mail_failed(bigint, text) is 'Server: records a delivery failure; the mail is retried until its fifth attempt, then marked failed.';
grant execute on function public.mark_mail_failed(bigint, text) to service_role;
