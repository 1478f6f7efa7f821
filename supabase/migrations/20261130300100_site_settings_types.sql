-- Declared result shapes (issue 24, item 3), the third batch: the public settings. The types, by hand; the
-- functions that return them follow in the next migration (written by db:migration).

create type public.dispute_resolution_body as (name text, url text);
comment on type public.dispute_resolution_body is 'The independent dispute-resolution body complaints can be escalated to: its name and web address.';

create type public.promoter as (name text, address text[]);
comment on type public.promoter is 'Who runs the promotion, with an address, one line each (CAP code 8.17).';

create type public.site_settings as (launch_at text, stamp_price numeric, postal_address text[], complaints_contact text, dispute_resolution_body public.dispute_resolution_body, spinner_enabled boolean, promoter public.promoter);
comment on type public.site_settings is 'The settings every visitor may see: the launch moment (ISO in UTC, or null), the stamp price, the postal address (lines), the complaints contact, the dispute-resolution body, the LabSpinner switch and the promoter.';
