-- Issue 25 item 2: the ledger kind of an instant-win credit prize. Its own file: a new enum value
-- cannot be used in the transaction that adds it, and the next migration's data may use it.
alter type public.ledger_kind add value if not exists 'instant_win';
