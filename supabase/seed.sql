-- ============================================================================
-- Demo data for the embedded default (and `supabase start`). Never run against
-- production. Every demo login's password is: LabCash-demo-1
-- ============================================================================

-- Demo users -------------------------------------------------------------------
insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
                        raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
select '00000000-0000-0000-0000-000000000000', u.id, 'authenticated', 'authenticated', u.email,
       extensions.crypt('LabCash-demo-1', extensions.gen_salt('bf', 10)), now(),
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
select public.post_ledger('00000000-0000-4000-8000-000000000003', 'top_up', 50.00, 'Credit purchase', 'seed-topup-1', 50.00);
select public.post_ledger('00000000-0000-4000-8000-000000000003', 'bonus', 1.25, 'Bonus credit (2.5%)', 'seed-topup-1');
select public.post_ledger('00000000-0000-4000-8000-000000000003', 'top_up', 25.00, 'Credit purchase', 'seed-topup-2', 25.00);
