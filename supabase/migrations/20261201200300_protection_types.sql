-- Declared result shapes (issue 24, item 3), the fourth batch: player protection's flags and a player's record.
-- The types, by hand (the generator writes functions, never types).

create type public.flag_player as (id uuid, name text, email text);
comment on type public.flag_player is 'The player a flag is about: their name (Deleted user once anonymised) and e-mail.';

create type public.player_flag as (id uuid, "user" public.flag_player, kind public.flag_kind, details jsonb, raised_at timestamp with time zone, status public.flag_status, reviewed_at timestamp with time zone, reviewed_by_name text, review_note text, intervention_kind public.intervention_kind);
comment on type public.player_flag is 'One player-protection flag as the admin screens show it: the player, kind, what the SQL saw (details, per kind), when raised, and its review (who, when, the note, the intervention recorded with it).';

create type public.player_protection_record as (restricted_at timestamp with time zone, flags public.player_flag[], interventions public.player_intervention[]);
comment on type public.player_protection_record is 'One player''s protection record: restricted since when (or null), their 50 latest flags and 50 latest interventions.';
