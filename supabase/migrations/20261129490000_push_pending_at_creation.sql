-- ============================================================================
-- Web push waits only for players who wanted it when the event happened
-- (issue 26, item 2): opting in to a kind, or turning push on in a browser,
-- pushed that kind's older notifications that were still waiting.
--   * notifications.push_pending now defaults to false: the writers
--     (private.notify, private.notify_draw, next migration) set it true only
--     when the player then had a browser subscribed and the kind chosen;
--   * rows already waiting for a player who had not chosen their kind with a
--     browser subscribed stop waiting, as they would have been written now.
-- Works on hosted Supabase (PostgreSQL 15/17) and on the embedded PGlite.
-- ============================================================================

alter table public.notifications alter column push_pending set default false;

update public.notifications n set push_pending = false
 where n.push_pending
   and not exists (select 1 from public.push_preferences pp join public.push_subscriptions s on s.user_id = pp.user_id
                    where pp.user_id = n.user_id and n.kind = any (pp.kinds));
