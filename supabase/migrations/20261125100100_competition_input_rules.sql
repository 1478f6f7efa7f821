-- Admin input that was accepted oddly (issue "Hardening" 11): a ticket price of 0.251 was stored as
-- 0.25 without a word (the row's numeric(…, 2) columns round on assignment, so the old check saw
-- 0.25), `closes_at = 'infinity'` made a competition that never closes, and an image address
-- `/\evil.example/x.png` passed the "starts with /" rule although browsers read `/\` as `//`, another
-- host. The fields are now checked as sent, before they reach the row.
--
-- competition_apply keeps its name (every create and update calls it) and checks the raw fields,
-- then hands over to the field-by-field version, renamed competition_apply_fields, unchanged.

alter function private.competition_apply(public.competitions, jsonb) rename to competition_apply_fields;
comment on function private.competition_apply_fields(public.competitions, jsonb) is 'Applies the fields present in p to a competition row and validates the result, with a message per problem. Called through competition_apply, which checks the raw fields first.';

create function private.competition_apply(p_base public.competitions, p jsonb) returns public.competitions
language plpgsql stable set search_path = '' as $$
declare
  amount record;
  date_field text;
  img text;
begin
  if p is not null and jsonb_typeof(p) = 'object' then
    for amount in
      select * from (values
        ('prize_value', 'Prize value must be an amount in pounds and pence'),
        ('ticket_price', 'Ticket price must be from £0.25 to £10,000, in pounds and pence'),
        ('cash_alternative', 'The cash alternative must be an amount in pounds and pence, above £0')
      ) as fields(name, message)
    loop
      -- A plain decimal (what else is sent is left to the casts, which explain themselves).
      if (p ->> amount.name) ~ '^\s*[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)\s*$'
         and not private.is_pounds((p ->> amount.name)::numeric) then
        raise exception '%', amount.message using errcode = '22023', hint = 'invalid_input';
      end if;
      if lower(btrim(p ->> amount.name)) in ('nan', 'infinity', '+infinity', '-infinity', 'inf', '+inf', '-inf') then
        raise exception '%', amount.message using errcode = '22023', hint = 'invalid_input';
      end if;
    end loop;
    foreach date_field in array array['opens_at', 'closes_at', 'postal_deadline', 'draw_at'] loop
      if lower(btrim(p ->> date_field)) in ('infinity', '+infinity', '-infinity') then
        raise exception 'Give a real date and time, not infinity' using errcode = '22023', hint = 'invalid_input';
      end if;
    end loop;
    if jsonb_typeof(p -> 'images') = 'array' then
      for img in select jsonb_array_elements_text(p -> 'images') loop
        -- A backslash reads as a slash in a browser; spaces and control characters are dropped.
        if img ~ '[\\[:cntrl:][:space:]]' then
          raise exception 'Image addresses must start with / or https://' using errcode = '22023', hint = 'invalid_input';
        end if;
      end loop;
    end if;
  end if;
  return private.competition_apply_fields(p_base, p);
end;
$$;
comment on function private.competition_apply(public.competitions, jsonb) is 'Applies the fields present in p to a competition row and validates the result: the amounts as sent (no third decimal, no NaN or infinity), real dates, image addresses without backslashes or spaces; then competition_apply_fields.';
