-- Purchases at the flush limit (issue 27, item 4), by hand (the generator writes functions, never indexes).
-- Receipts, and every other mail the app sends itself, carry no campaign: indexing their null campaign_id cost
-- each purchase an index entry that nothing reads. Every reader asks for one campaign (campaign_id = …, which
-- implies not null: the campaign's outbox page and counts, and the foreign key's check when a campaign goes),
-- so the partial index serves them all.
drop index public.mail_outbox_campaign_idx;
create index mail_outbox_campaign_idx on public.mail_outbox (campaign_id, id DESC) where (campaign_id IS NOT NULL);
