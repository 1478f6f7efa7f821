-- Declared result shapes (issue 24, item 3), the third batch: the approval mode as an enum (the setting stays a
-- jsonb string in app_settings; the functions that read and set it answer the enum). The types, by hand.

create type public.approval_mode as enum ('manual', 'auto');
comment on type public.approval_mode is 'How new accounts are approved: manual (an admin approves each) or auto (approved as they sign up); the approval_mode setting holds one.';

create type public.approval_mode_setting as (approval_mode public.approval_mode);
comment on type public.approval_mode_setting is 'The approval mode, as the approvals screen reads and sets it.';
