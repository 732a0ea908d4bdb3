-- A subscription that started with a trial keeps when the trial ends (the provider's trial_end); null when it had none.
alter table subscriptions add column if not exists trial_end timestamptz;
