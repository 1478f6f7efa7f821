-- ============================================================================
-- Demo data for the embedded default (and `supabase start`). Never run against
-- production. Every demo login's password is: LabCash-demo-1
-- ============================================================================

-- Demo users -------------------------------------------------------------------
-- The password is hashed once, at the real cost, and every demo login shares that hash: each bcrypt costs a
-- tenth of a second in the embedded database, and the seed runs at every start of a new one (tests start many).
insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
                        raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
with demo_password as materialized (select extensions.crypt('LabCash-demo-1', extensions.gen_salt('bf', 10)) as hash)
select '00000000-0000-0000-0000-000000000000', u.id, 'authenticated', 'authenticated', u.email,
       (select hash from demo_password), now(),
       '{"provider":"email","providers":["email"]}'::jsonb,
       jsonb_build_object('name', u.name, 'date_of_birth', u.dob), now() - u.age, now() - u.age
from (values
  ('00000000-0000-4000-8000-000000000001'::uuid, 'superadmin@labcash.test', 'Sam Super', '1985-03-14', interval '60 days'),
  ('00000000-0000-4000-8000-000000000002'::uuid, 'admin@labcash.test', 'Alex Admin', '1990-07-02', interval '50 days'),
  ('00000000-0000-4000-8000-000000000003'::uuid, 'player@labcash.test', 'Priya Player', '1996-11-23', interval '30 days'),
  ('00000000-0000-4000-8000-000000000004'::uuid, 'pending@labcash.test', 'Pat Pending', '2001-01-09', interval '2 days')
) as u(id, email, name, dob, age);

insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
select u.id::text, u.id, jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', true),
       'email', now(), now(), now()
from auth.users u
where u.id in ('00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002',
               '00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-000000000004');

-- Roles and approval -------------------------------------------------------------
update public.user_account_data set role = 'super_admin', approved = true, approved_at = now(), age_verified = true
 where id = '00000000-0000-4000-8000-000000000001';
update public.user_account_data set role = 'admin', approved = true, approved_at = now(), age_verified = true,
       approved_by = '00000000-0000-4000-8000-000000000001'
 where id = '00000000-0000-4000-8000-000000000002';
update public.user_account_data set approved = true, approved_at = now() - interval '29 days', age_verified = true,
       approved_by = '00000000-0000-4000-8000-000000000002'
 where id = '00000000-0000-4000-8000-000000000003';

-- Credit for the approved player, through the ledger -----------------------------
-- The seed runs as the database owner, so it may call the private ledger helper. These
-- demo purchases are ledger rows only, with no top_ups row behind them: no payment was
-- confirmed, so they count towards no monthly limit or credit-card cap.
select private.post_ledger('00000000-0000-4000-8000-000000000003', 'top_up', 50.00, 'Credit purchase', 'seed-topup-1', 50.00);
select private.post_ledger('00000000-0000-4000-8000-000000000003', 'bonus', 1.25, 'Bonus credit (2.5%)', 'seed-topup-1');
select private.post_ledger('00000000-0000-4000-8000-000000000003', 'top_up', 25.00, 'Credit purchase', 'seed-topup-2', 25.00);

-- ============================================================================
-- Competitions (demo): one in each state, made through the same functions the
-- admin pages and players use, so every seed commitment and draw is real and
-- verifiable. Demo buyers below have the same password as the other demo logins.
-- ============================================================================
insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
                        raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
select '00000000-0000-0000-0000-000000000000', u.id, 'authenticated', 'authenticated', u.email,
       (select encrypted_password from auth.users where id = '00000000-0000-4000-8000-000000000003'), now(),
       '{"provider":"email","providers":["email"]}'::jsonb,
       jsonb_build_object('name', u.name, 'date_of_birth', u.dob), now() - interval '40 days', now() - interval '40 days'
from (values
  ('00000000-0000-4000-8000-0000000000b1'::uuid, 'oliver.bennett@labcash.test', 'Oliver Bennett', '1988-04-17'),
  ('00000000-0000-4000-8000-0000000000b2'::uuid, 'amelia.clarke@labcash.test', 'Amelia Clarke', '1993-09-05'),
  ('00000000-0000-4000-8000-0000000000b3'::uuid, 'harry.patel@labcash.test', 'Harry Patel', '1979-12-30'),
  ('00000000-0000-4000-8000-0000000000b4'::uuid, 'isla.morgan@labcash.test', 'Isla Morgan', '1999-02-11'),
  ('00000000-0000-4000-8000-0000000000b5'::uuid, 'george.evans@labcash.test', 'George Evans', '1984-06-23')
) as u(id, email, name, dob);

insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
select u.id::text, u.id, jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', true),
       'email', now(), now(), now()
from auth.users u
where u.id::text like '00000000-0000-4000-8000-0000000000b_';

update public.profiles p set town = t.town
  from (values ('00000000-0000-4000-8000-0000000000b1'::uuid, 'Leeds'), ('00000000-0000-4000-8000-0000000000b2'::uuid, 'Cardiff'),
               ('00000000-0000-4000-8000-0000000000b3'::uuid, 'Bristol'), ('00000000-0000-4000-8000-0000000000b4'::uuid, 'Glasgow')) as t(id, town)
 where p.id = t.id;

-- Isla appears by her initials only, on the winners page and the entry lists (CAP 8.28.5).
update public.profiles set show_initials_only = true where id = '00000000-0000-4000-8000-0000000000b4';

update public.user_account_data set approved = true, approved_at = now() - interval '39 days', age_verified = true,
       approved_by = '00000000-0000-4000-8000-000000000002'
 where id::text like '00000000-0000-4000-8000-0000000000b_';

select private.post_ledger(u.id, 'top_up', 1000.00, 'Credit purchase', 'seed-topup-' || right(u.id::text, 2), 1000.00)
  from auth.users u where u.id::text like '00000000-0000-4000-8000-0000000000b_';
select private.post_ledger(u.id, 'bonus', 50.00, 'Bonus credit (5%)', 'seed-topup-' || right(u.id::text, 2))
  from auth.users u where u.id::text like '00000000-0000-4000-8000-0000000000b_';

do $$
declare
  -- The admin acts with a two-step verified session (aal2), as every admin function requires.
  admin_claims constant text := '{"sub":"00000000-0000-4000-8000-000000000002","role":"authenticated","aal":"aal2"}';
  buyers constant uuid[] := array[
    '00000000-0000-4000-8000-0000000000b1', '00000000-0000-4000-8000-0000000000b2', '00000000-0000-4000-8000-0000000000b3',
    '00000000-0000-4000-8000-0000000000b4', '00000000-0000-4000-8000-0000000000b5']::uuid[];
  iphone uuid; macbook uuid; ps5 uuid; switch2 uuid; drone uuid; deck uuid; galaxy uuid; watch uuid; headphones uuid;
  cash uuid;
  b uuid;
  i integer;
begin
  perform set_config('request.jwt.claims', admin_claims, true);

  -- Live, with a cash alternative.
  iphone := (public.admin_create_competition(jsonb_build_object(
    'title', 'iPhone 17 Pro Max 256GB', 'slug', 'iphone-17-pro-max',
    'summary', 'Apple''s biggest iPhone in Cosmic Orange, unlocked, for 99p a ticket, or £1,050 cash.',
    'description', 'Brand new and sealed, UK model, unlocked for every network. Delivered free by tracked courier within 7 days of the win being verified. The winner may take £1,050 in cash instead.',
    'prize_description', 'Apple iPhone 17 Pro Max, 256GB, Cosmic Orange, unlocked (UK)',
    'prize_value', 1199.00, 'cash_alternative', 1050.00, 'images', jsonb_build_array('/competitions/iphone-17-pro-max.svg'),
    'ticket_price', 0.99, 'total_tickets', 2000, 'max_tickets_per_user', 150,
    'closes_at', now() + interval '6 days 5 hours',
    'skill_question', 'Which company makes the iPhone?',
    'skill_options', jsonb_build_array('Samsung', 'Apple', 'Google'), 'skill_answer', 'Apple',
    -- A charity partner with a share of the sales (the demo's charities are made up).
    'charity', jsonb_build_object('name', 'Dales Children''s Hospice', 'registered_number', '1190417',
                                  'revenue_percent', 10)))).id;

  -- Live, players pick their numbers (or take a lucky dip), so the number grid has both to show.
  cash := (public.admin_create_competition(jsonb_build_object(
    'title', '£500 Cash: Pick Your Numbers', 'slug', '500-cash-pick-your-numbers',
    'summary', 'Choose your lucky numbers from 1 to 500, or take a lucky dip: 50p a ticket.',
    'description', 'Pick the ticket numbers you want from the grid, or let a lucky dip choose free ones for you. £500 paid to the winner''s bank account within 3 working days of the win being verified.',
    'prize_description', '£500 cash, paid by bank transfer',
    'prize_value', 500.00, 'images', jsonb_build_array('/competitions/500-cash-pick-your-numbers.svg'),
    'ticket_price', 0.50, 'total_tickets', 500, 'max_tickets_per_user', 50, 'ticket_numbering', 'pick',
    'closes_at', now() + interval '5 days 2 hours',
    'skill_question', 'How many pence are in a pound?',
    'skill_options', jsonb_build_array('10', '100', '1000'), 'skill_answer', '100'))).id;

  -- Live and nearly sold out.
  macbook := (public.admin_create_competition(jsonb_build_object(
    'title', 'MacBook Pro 14" M5', 'slug', 'macbook-pro-14-m5',
    'summary', 'Nearly gone: the 14-inch MacBook Pro with the M5 chip.',
    'description', 'Space Black, 16GB unified memory, 512GB SSD. Sealed UK stock with Apple''s one-year warranty.',
    'prize_description', 'Apple MacBook Pro 14-inch, M5, 16GB, 512GB SSD, Space Black',
    'prize_value', 1599.00, 'images', jsonb_build_array('/competitions/macbook-pro-14-m5.svg'),
    'ticket_price', 2.49, 'total_tickets', 500, 'max_tickets_per_user', 100,
    'closes_at', now() + interval '2 days 3 hours',
    'skill_question', 'How many inches is the screen of this MacBook Pro, rounded?',
    'skill_options', jsonb_build_array('13', '14', '16'), 'skill_answer', '14',
    -- Three prizes from one draw.
    'prizes', jsonb_build_array(
      jsonb_build_object('description', 'Apple AirPods Pro 3', 'value', 249.00),
      jsonb_build_object('description', 'Apple AirTag, pack of four', 'value', 119.00))))).id;

  -- Sold out before its close: online sales have ended, postal entries still come in,
  -- and the draw waits for its draw time.
  ps5 := (public.admin_create_competition(jsonb_build_object(
    'title', 'PlayStation 5 Pro', 'slug', 'playstation-5-pro',
    'summary', 'Sold out in a day. Free postal entries are still open, and the draw is at its draw time.',
    'description', 'The PS5 Pro console with 2TB of storage and a DualSense controller.',
    'prize_description', 'Sony PlayStation 5 Pro, 2TB, with DualSense wireless controller',
    'prize_value', 699.99, 'images', jsonb_build_array('/competitions/playstation-5-pro.svg'),
    'ticket_price', 0.50, 'total_tickets', 120, 'max_tickets_per_user', 30,
    'closes_at', now() + interval '5 days',
    'skill_question', 'Which company makes the PlayStation?',
    'skill_options', jsonb_build_array('Sony', 'Nintendo', 'Microsoft'), 'skill_answer', 'Sony'))).id;

  -- Closed online; in its postal window (the postal deadline is still ahead).
  switch2 := (public.admin_create_competition(jsonb_build_object(
    'title', 'Nintendo Switch 2 Mario Kart World Bundle', 'slug', 'nintendo-switch-2',
    'summary', 'Online entries have closed; free postal entries are accepted until the postal deadline.',
    'description', 'The Nintendo Switch 2 console with Mario Kart World, UK stock.',
    'prize_description', 'Nintendo Switch 2 with Mario Kart World (download code)',
    'prize_value', 429.99, 'images', jsonb_build_array('/competitions/nintendo-switch-2.svg'),
    'ticket_price', 0.50, 'total_tickets', 400, 'max_tickets_per_user', 40,
    'closes_at', now() + interval '4 days',
    'skill_question', 'Which company makes the Switch?',
    'skill_options', jsonb_build_array('Sony', 'Nintendo', 'Valve'), 'skill_answer', 'Nintendo'))).id;

  -- Drawn at its draw time with online and postal tickets.
  drone := (public.admin_create_competition(jsonb_build_object(
    'title', 'DJI Mini 5 Pro Fly More Combo', 'slug', 'dji-mini-5-pro',
    'summary', 'Drawn at its draw time: 135 of 300 online tickets sold, plus free postal entries.',
    'description', 'Under 250g, 4K HDR video, three batteries and the charging hub.',
    'prize_description', 'DJI Mini 5 Pro Fly More Combo with DJI RC 2',
    'prize_value', 1029.00, 'images', jsonb_build_array('/competitions/dji-mini-5-pro.svg'),
    'ticket_price', 1.00, 'total_tickets', 300, 'max_tickets_per_user', 50,
    'closes_at', now() + interval '1 day',
    -- Three prizes, drawn in turn from the one draw.
    'prizes', jsonb_build_array(
      jsonb_build_object('description', 'DJI Osmo Pocket 3 Creator Combo', 'value', 479.00, 'cash_alternative', 400.00),
      jsonb_build_object('description', 'DJI Mic Mini', 'value', 89.00)),
    -- A fixed sum, owed now that it is drawn.
    'charity', jsonb_build_object('name', 'Pennine Mountain Rescue Team', 'registered_number', 'SC041726',
                                  'fixed_amount', 250)))).id;

  -- Closed with no entries, so there was no draw.
  deck := (public.admin_create_competition(jsonb_build_object(
    'title', 'Steam Deck OLED 1TB', 'slug', 'steam-deck-oled',
    'summary', 'Closed with no entries, so there was no draw.',
    'description', 'Valve''s handheld PC with the HDR OLED screen and 1TB of storage.',
    'prize_description', 'Valve Steam Deck OLED, 1TB, with carry case',
    'prize_value', 569.00, 'images', jsonb_build_array('/competitions/steam-deck-oled.svg'),
    'ticket_price', 0.25, 'total_tickets', 2500, 'max_tickets_per_user', 200,
    'closes_at', now() + interval '1 day'))).id;

  -- A draft, never published.
  galaxy := (public.admin_create_competition(jsonb_build_object(
    'title', 'Samsung Galaxy S26 Ultra', 'slug', 'samsung-galaxy-s26-ultra',
    'summary', 'Coming soon: Samsung''s flagship with the built-in S Pen.',
    'description', 'Titanium frame, 200MP camera, 512GB.',
    'prize_description', 'Samsung Galaxy S26 Ultra, 512GB, Titanium Black, unlocked (UK)',
    'prize_value', 1349.00, 'images', jsonb_build_array('/competitions/samsung-galaxy-s26-ultra.svg'),
    'ticket_price', 1.49, 'total_tickets', 1500, 'max_tickets_per_user', 100,
    'opens_at', now() + interval '10 days', 'closes_at', now() + interval '24 days',
    'skill_question', 'What is the stylus of a Galaxy Ultra called?',
    'skill_options', jsonb_build_array('Apple Pencil', 'S Pen', 'Surface Pen'), 'skill_answer', 'S Pen'))).id;

  -- Cancelled, every entry refunded.
  watch := (public.admin_create_competition(jsonb_build_object(
    'title', 'Apple Watch Ultra 3', 'slug', 'apple-watch-ultra-3',
    'summary', 'Cancelled: every entry was refunded to credit.',
    'description', 'The 49mm titanium Apple Watch Ultra 3 with the Orange Alpine Loop.',
    'prize_description', 'Apple Watch Ultra 3, 49mm natural titanium, Orange Alpine Loop',
    'prize_value', 799.00, 'images', jsonb_build_array('/competitions/apple-watch-ultra-3.svg'),
    'ticket_price', 0.75, 'total_tickets', 1000, 'max_tickets_per_user', 100,
    'closes_at', now() + interval '8 days'))).id;

  -- Published, opening later.
  headphones := (public.admin_create_competition(jsonb_build_object(
    'title', 'Sony WH-1000XM6 Headphones', 'slug', 'sony-wh-1000xm6',
    'summary', 'Opens for entries in two days: 25p a ticket.',
    'description', 'Sony''s best noise-cancelling headphones, in Midnight Blue.',
    'prize_description', 'Sony WH-1000XM6 wireless noise-cancelling headphones, Midnight Blue',
    'prize_value', 399.00, 'images', jsonb_build_array('/competitions/sony-wh-1000xm6.svg'),
    'ticket_price', 0.25, 'total_tickets', 1600, 'max_tickets_per_user', 200,
    'opens_at', now() + interval '2 days', 'closes_at', now() + interval '12 days',
    'skill_question', 'What does ANC stand for?',
    'skill_options', jsonb_build_array('Active Noise Cancelling', 'Automatic Network Control', 'Audio Nano Chip'),
    'skill_answer', 'Active Noise Cancelling'))).id;

  perform public.admin_publish_competition(c) from unnest(array[iphone, cash, macbook, ps5, switch2, drone, deck, watch, headphones]) c;

  -- Sales, as the buyers.
  for i in 1 .. 5 loop
    b := buyers[i];
    perform set_config('request.jwt.claims', jsonb_build_object('sub', b, 'role', 'authenticated')::text, true);
    perform public.enter_competition(iphone, 40 + 17 * i, 'Apple');
    perform public.enter_competition(macbook, case when i < 5 then 100 else 88 end, '14');
    perform public.enter_competition(switch2, 10 + 5 * i, 'Nintendo');
    perform public.enter_competition(drone, 15 + 4 * i, null);
    perform public.enter_competition(watch, 10 * i, null);
    -- Chosen numbers (all different), before any lucky dip could take one of them.
    perform public.enter_competition(cash, 3, '100', array[i * 7, i * 11 + 100, i * 42 + 200]);
    if i <= 4 then
      perform public.enter_competition(ps5, 30, 'Sony');
    end if;
  end loop;
  -- Lucky dips on the pick competition: free numbers at random.
  for i in 1 .. 5 loop
    perform set_config('request.jwt.claims', jsonb_build_object('sub', buyers[i], 'role', 'authenticated')::text, true);
    perform public.enter_competition(cash, 2 * i, '100');
  end loop;

  -- Free postal entries, recorded by the admin. A letter gets max(1, ceil(stamp / ticket price))
  -- tickets, numbered after the online pool: 1 at 99p, 2 at 50p, 4 at 25p.
  perform set_config('request.jwt.claims', admin_claims, true);
  perform public.admin_record_postal_entry(iphone, null, 'Margaret Holt', '14 Orchard Road, Harrogate HG1 2AB', 'Apple');
  perform public.admin_record_postal_entry(ps5, null, 'Daniel Okafor', '7 Mill Lane, Norwich NR2 4PT', 'Sony');
  perform public.admin_record_postal_entry(switch2, null, 'Fiona Grant', '3 Castle Wynd, Inverness IV2 3EP', 'Nintendo');
  perform public.admin_record_postal_entry(drone, null, 'Ruth Ellis', '21 Quay Street, Truro TR1 2HE', null);
  perform public.admin_record_postal_entry(drone, buyers[5], 'George Evans', '88 Station Road, Swindon SN1 1EL', null);
  perform public.admin_cancel_competition(watch, 'The supplier could not guarantee UK stock before the close date.');

  -- Time passes. The Switch closed online yesterday and its postal deadline is tomorrow; a
  -- letter arrives in the window. The drone and the Steam Deck reached their draw times three
  -- days ago, and the cron run draws the one with tickets and closes the other.
  update public.competitions
     set opens_at = now() - interval '12 days', published_at = now() - interval '12 days',
         closes_at = now() - interval '1 day', postal_deadline = now() + interval '1 day',
         draw_at = now() + interval '1 day 2 hours'
   where id = switch2;
  perform public.admin_record_postal_entry(switch2, null, 'Tom Reid', '12 Harbour View, Plymouth PL1 2AA', 'Nintendo');

  update public.competitions
     set opens_at = now() - interval '21 days', published_at = now() - interval '21 days',
         closes_at = now() - interval '5 days', postal_deadline = now() - interval '3 days',
         draw_at = now() - interval '3 days'
   where id in (drone, deck);
  perform set_config('request.jwt.claims', '{"role":"service_role"}', true);
  perform public.run_due_draws();
  update public.competitions set closed_at = now() - interval '5 days' where id in (drone, deck);
  -- The drone's first-prize winner claimed it, was verified and has it: each step with its date and the courier's
  -- reference (draws_prize_fulfilment_steps_check), and the identity check behind the verification. Its other
  -- prizes await their claims.
  update public.draws set drawn_at = now() - interval '3 days', prize_status = 'delivered',
         prize_choice = 'prize', delivery_address = '4 Mill Lane, Harrogate HG1 2AB',
         claimed_at = now() - interval '3 days' + interval '2 hours',
         verified_at = now() - interval '2 days',
         delivered_at = now() - interval '1 day',
         proof_of_delivery = 'DPD 1550 2026 4471',
         prize_status_updated_at = now() - interval '1 day'
   where competition_id = drone and prize_position = 1;
  update public.draws set drawn_at = now() - interval '3 days' where competition_id = drone;
  -- What the admin checked before verifying (only the last four characters of the number are kept).
  insert into public.prize_identity_checks (draw_id, document_type, document_last_four, note, checked_by, checked_at)
  select d.id, 'driving_licence', '9AB4', 'Checked on a video call', '00000000-0000-4000-8000-000000000002',
         now() - interval '2 days'
    from public.draws d where d.competition_id = drone and d.prize_position = 1;
  perform set_config('request.jwt.claims', '', true);
end
$$;

-- ============================================================================
-- LabSpinner (demo): Priya's postal request gives her one spin credit (the free route);
-- two of the buyers, who earned credits on their tickets, have spun a few times. Spins
-- go through spin_wheel as the players, so every one is real and verifiable. Priya does
-- not spin here: her balance stays what the tests expect.
-- ============================================================================
do $$
declare
  spinners constant uuid[] := array['00000000-0000-4000-8000-0000000000b1', '00000000-0000-4000-8000-0000000000b2']::uuid[];
  b uuid;
begin
  perform set_config('request.jwt.claims', '{"sub":"00000000-0000-4000-8000-000000000002","role":"authenticated","aal":"aal2"}', true);
  perform public.admin_record_spin_request('00000000-0000-4000-8000-000000000003', 'Postcard received (demo)');

  foreach b in array spinners loop
    perform set_config('request.jwt.claims', jsonb_build_object('sub', b, 'role', 'authenticated')::text, true);
    perform public.spin_wheel() from generate_series(1, 3);
  end loop;
  perform set_config('request.jwt.claims', '', true);
end
$$;

-- ============================================================================
-- Instant wins (demo): a live competition whose instant wins are partly won,
-- and a drawn one whose every instant win (and the draw) verifies in the browser. Through the
-- real RPCs, so the numbers come from each competition's own secret seed: the buyers keep buying
-- until a few have been won (the numbers are random, so how many tickets that takes varies).
-- ============================================================================
do $$
declare
  admin_claims constant text := '{"sub":"00000000-0000-4000-8000-000000000002","role":"authenticated","aal":"aal2"}';
  buyers constant uuid[] := array[
    '00000000-0000-4000-8000-0000000000b1', '00000000-0000-4000-8000-0000000000b2', '00000000-0000-4000-8000-0000000000b3']::uuid[];
  bundle uuid;
  weekend uuid;
  i integer := 0;
begin
  perform set_config('request.jwt.claims', admin_claims, true);
  bundle := (public.admin_create_competition(jsonb_build_object(
    'title', 'Instant Win Bundle: £500 credit', 'slug', 'instant-win-bundle',
    'summary', '£500 of credit in the main draw, and 12 instant wins: credit, LabSpinner spins and an Echo Dot.',
    'description', 'Every ticket is in the main draw; twelve ticket numbers also win a prize the moment they are bought.',
    'prize_description', '£500 of LabCash credit', 'prize_value', 500.00,
    'images', jsonb_build_array('/competitions/instant-win-bundle.svg'),
    'ticket_price', 0.50, 'total_tickets', 200, 'max_tickets_per_user', 100,
    'closes_at', now() + interval '9 days'))).id;
  perform public.admin_set_instant_win_prizes(bundle, jsonb_build_array(
    jsonb_build_object('kind', 'credit', 'credit_amount', 5, 'quantity', 6),
    jsonb_build_object('kind', 'spin', 'quantity', 4),
    jsonb_build_object('kind', 'physical', 'title', 'Amazon Echo Dot (5th gen)', 'quantity', 2)));
  weekend := (public.admin_create_competition(jsonb_build_object(
    'title', 'Instant Win Weekend: £200 credit', 'slug', 'instant-win-weekend',
    'summary', 'Drawn: every instant win was bought, and each one checks against its commitment.',
    'description', 'A small competition whose five instant wins were all won before the draw.',
    'prize_description', '£200 of LabCash credit', 'prize_value', 200.00,
    'images', jsonb_build_array('/competitions/instant-win-weekend.svg'),
    'ticket_price', 1.00, 'total_tickets', 30, 'max_tickets_per_user', 10,
    'closes_at', now() + interval '1 day'))).id;
  perform public.admin_set_instant_win_prizes(weekend, jsonb_build_array(
    jsonb_build_object('kind', 'credit', 'credit_amount', 2, 'quantity', 3),
    jsonb_build_object('kind', 'spin', 'quantity', 2)));
  perform public.admin_publish_competition(bundle);
  perform public.admin_publish_competition(weekend);

  while (select count(*) from public.instant_wins w where w.competition_id = bundle) < 3 and i < 15 loop
    perform set_config('request.jwt.claims', jsonb_build_object('sub', buyers[1 + i % 3], 'role', 'authenticated')::text, true);
    perform public.enter_competition(bundle, 10, null);
    i := i + 1;
  end loop;
  for i in 1 .. 3 loop
    perform set_config('request.jwt.claims', jsonb_build_object('sub', buyers[i], 'role', 'authenticated')::text, true);
    perform public.enter_competition(weekend, 10, null);
  end loop;

  update public.competitions
     set opens_at = now() - interval '12 days', published_at = now() - interval '12 days',
         closes_at = now() - interval '6 days', postal_deadline = now() - interval '5 days',
         draw_at = now() - interval '5 days', closed_at = now() - interval '6 days'
   where id = weekend;
  perform set_config('request.jwt.claims', '{"role":"service_role"}', true);
  perform public.run_due_draws();
  -- Drawn before the drone, so the newest winner on /winners stays the drone's.
  update public.draws set drawn_at = now() - interval '5 days' where competition_id = weekend;
  perform set_config('request.jwt.claims', '', true);
end
$$;
