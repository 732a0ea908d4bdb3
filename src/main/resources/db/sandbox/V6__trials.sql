-- Trials, as Stripe keeps them: a checkout session's subscription_data.trial_period_days, and a subscription's
-- trial_start and trial_end (null when it had no trial).
alter table sandbox.sandbox_checkout_sessions add column if not exists trial_period_days bigint;
alter table sandbox.sandbox_subscriptions add column if not exists trial_start bigint;
alter table sandbox.sandbox_subscriptions add column if not exists trial_end bigint;
