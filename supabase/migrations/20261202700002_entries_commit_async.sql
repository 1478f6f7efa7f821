-- entries_commit_async: written by `npm run db:migration` from supabase/schemas. Review it before committing.

create or replace function public.enter_competition(p_competition_id uuid, p_quantity integer, p_answer text default null,
                                                    p_numbers integer[] default null)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := private.require_user();
  entry jsonb;
  err_hint text;
  retry_at timestamptz;
begin
  -- One attempt at a time per player and competition, held to commit: a second answer sent at the same
  -- moment waits here and then sees the first one's miss (the account lock inside the sub-transaction
  -- is released when a wrong answer rolls it back, so it cannot do this).
  perform pg_advisory_xact_lock(hashtextextended('skill-answer:' || uid::text || ':' || p_competition_id::text, 0));
  begin
    entry := private.enter_competition_for(uid, p_competition_id, p_quantity, p_answer, p_numbers);
    -- The purchase commits without waiting for its WAL flush, so the competition's counter queue (held to
    -- commit) passes to the next buyer once the commit record is written. The caller answers the player only
    -- after public.make_entries_durable(), whose flush covers this commit; WAL order means a crash can lose
    -- only the last purchases, never one between two that survive. Transaction-local, set here (not in a
    -- function SET clause, which is undone when the function returns): it must hold at commit.
    perform pg_catalog.set_config('synchronous_commit', 'off', true);
    return entry;
  exception when sqlstate 'P0001' then
    get stacked diagnostics err_hint = pg_exception_hint;
    if err_hint is distinct from 'answer_incorrect' then
      raise;
    end if;
  end;
  -- The wrong answer: the sub-transaction above undid whatever the purchase had done; the miss is kept.
  perform private.record_skill_miss(uid, p_competition_id);
  retry_at := private.skill_answer_retry_at(uid, p_competition_id);
  return jsonb_build_object('refused', jsonb_build_object(
    'code', 'answer_incorrect',
    'message', 'That answer is not correct.'
               || case when retry_at is null then '' else ' You can try again at ' || private.london_time_text(retry_at) end,
    'retry_at', retry_at));
end;
$$;
comment on function public.enter_competition(uuid,integer,text,integer[]) is 'Signed-in, approved players: buys p_quantity tickets, or on a pick competition the numbers p_numbers (null: a lucky dip of p_quantity) (private.enter_competition_for), refusing with a raised error and its code; except a wrong skill answer, which is recorded (skill_answer_misses: the question closes to the player for skill_answer_cooldown_minutes, refused as skill_answer_cooldown) and returned as {"refused": {"code": "answer_incorrect", message, retry_at}} so the record commits. A purchase commits asynchronously (synchronous_commit off): it is durable only once public.make_entries_durable() has returned.';
revoke all on function public.enter_competition(uuid,integer,text,integer[]) from public, anon, authenticated, service_role;
grant execute on function public.enter_competition(uuid,integer,text,integer[]) to authenticated;
grant execute on function public.enter_competition(uuid,integer,text,integer[]) to service_role;

create or replace function public.make_entries_durable() returns void
language plpgsql security definer set search_path = '' as $$
begin
  perform private.require_user();
  -- A commit waits for its WAL flush only when the transaction wrote WAL: an xid alone (txid_current()) writes
  -- none and commits without a flush. A transactional logical message is one small record and touches no table;
  -- this commit's flush then reaches past every commit before it, the caller's purchase included.
  if pg_catalog.current_setting('synchronous_commit') = 'off' then
    perform pg_catalog.set_config('synchronous_commit', 'on', true);
  end if;
  perform pg_catalog.pg_logical_emit_message(true, 'labcash.entries_durable', ''::text);
end;
$$;
comment on function public.make_entries_durable() is 'Signed-in users: returns once every transaction committed before it is on disk, so the caller''s purchases (public.enter_competition commits asynchronously) survive a crash. Commits synchronously, even where the server''s default is off, after writing one logical WAL message (prefix labcash.entries_durable, empty).';
revoke all on function public.make_entries_durable() from public, anon, authenticated, service_role;
grant execute on function public.make_entries_durable() to authenticated;
