-- limits_left_to_top_up_and_to_spend: the monthly limit caps top-ups and spending on entries, each counted on its
-- own, but the player read one "left this month" figure, the limit less the larger of the two: £0.00 while an entry
-- still went through. The figure becomes two, each named for what it caps (docs/decisions/052). Written by hand for
-- the type; the functions follow from the sources.
alter type public.protections rename attribute monthly_remaining to top_up_remaining;
alter type public.protections add attribute spend_remaining numeric;
comment on type public.protections is 'A player''s protections: the monthly limit (and a pending increase), this month''s figures, what is left of it to top up (top_up_remaining) and to spend on entries (spend_remaining), each null without a limit, and their state.';
