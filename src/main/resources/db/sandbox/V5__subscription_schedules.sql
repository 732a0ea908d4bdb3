-- Subscription schedules, as Stripe keeps them: a subscription follows its schedule's phases (each a price from its
-- start to its end), and leaves it (released) or ends with it at the end of the last phase. A subscription has at
-- most one schedule that still governs it (not_started or active). Phases are kept as Stripe shows them, in order:
-- [{start_date, end_date, price, quantity}].
create table if not exists sandbox.sandbox_subscription_schedules (
    id                    text primary key,
    customer              text   not null references sandbox.sandbox_customers (id),
    subscription          text references sandbox.sandbox_subscriptions (id),
    status                text   not null check (status in ('not_started', 'active', 'completed', 'released', 'canceled')),
    end_behavior          text   not null check (end_behavior in ('release', 'cancel')),
    phases                jsonb  not null,
    released_subscription text,
    released_at           bigint,
    canceled_at           bigint,
    completed_at          bigint,
    metadata              jsonb  not null default '{}',
    created               bigint not null
);
create unique index if not exists sandbox_subscription_schedules_governing
    on sandbox.sandbox_subscription_schedules (subscription) where status in ('not_started', 'active');
