-- A downgrade waits for the end of the current period (a subscription schedule at the provider): the plan it moves
-- to, when, and the provider's schedule that makes it. And, once a plan changed, the plan before and when the current
-- one took effect, so that a renewal invoice drafted for a period that ended before the change bills that period's
-- storage on the plan it had.
alter table subscriptions
    add column scheduled_plan_id    uuid references plans (id),
    add column scheduled_change_at  timestamptz,
    add column provider_schedule_id text check (provider_schedule_id like 'sub\_sched\_%'),
    add column previous_plan_id     uuid references plans (id),
    add column plan_since           timestamptz,
    add constraint subscriptions_scheduled_change_whole
        check ((scheduled_plan_id is null) = (scheduled_change_at is null));
