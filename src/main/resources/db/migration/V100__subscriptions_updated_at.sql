-- Every instance asks each second for the organizations whose subscriptions were written since its last look
-- (the plan behind verify's tier and storage allowance): without this index that is a scan of every subscription.
create index subscriptions_updated_at on subscriptions (updated_at);
