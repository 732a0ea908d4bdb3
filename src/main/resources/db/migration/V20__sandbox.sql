-- The built-in Stripe stand-in (package com.kvportal.sandbox): its customers, prices, checkout and portal
-- sessions, subscriptions, invoices, idempotency keys and the outbox of webhook events. Times of Stripe
-- objects are unix seconds, as Stripe shows them; times the sandbox only uses itself are timestamptz.
create table sandbox_prices (
    id                 text primary key,
    product            text   not null,
    nickname           text   not null,
    unit_amount        bigint not null check (unit_amount >= 0),
    currency           text   not null,
    recurring_interval text   not null check (recurring_interval in ('day', 'week', 'month', 'year')),
    created            bigint not null
);
insert into sandbox_prices (id, product, nickname, unit_amount, currency, recurring_interval, created)
values ('price_sandbox_pro', 'prod_sandbox_pro', 'Pro', 2000, 'usd', 'month', 1767225600);

create table sandbox_customers (
    id           text primary key,
    email        text,
    name         text,
    metadata     jsonb  not null default '{}',
    -- what the customer's card does at the next charge (the sandbox's stand-in for a payment method)
    card_outcome text   not null default 'succeeded' check (card_outcome in ('succeeded', 'card_declined')),
    created      bigint not null
);

create table sandbox_checkout_sessions (
    id                    text primary key,
    status                text   not null check (status in ('open', 'complete', 'expired')),
    payment_status        text   not null check (payment_status in ('paid', 'unpaid', 'no_payment_required')),
    mode                  text   not null,
    customer              text references sandbox_customers (id),
    customer_email        text,
    client_reference_id   text,
    metadata              jsonb  not null default '{}',
    price                 text   not null references sandbox_prices (id),
    quantity              bigint not null check (quantity > 0),
    success_url           text   not null,
    cancel_url            text,
    subscription_metadata jsonb  not null default '{}',
    subscription          text,
    created               bigint not null,
    expires_at            bigint not null,
    completed_at          bigint
);

create table sandbox_subscriptions (
    id                   text primary key,
    customer             text    not null references sandbox_customers (id),
    status               text    not null,
    price                text    not null references sandbox_prices (id),
    quantity             bigint  not null check (quantity > 0),
    item_id              text    not null unique,
    item_created         bigint  not null,
    billing_cycle_anchor bigint  not null,
    current_period_start bigint  not null,
    current_period_end   bigint  not null,
    cancel_at_period_end boolean not null default false,
    cancel_at            bigint,
    canceled_at          bigint,
    ended_at             bigint,
    metadata             jsonb   not null default '{}',
    latest_invoice       text,
    created              bigint  not null
);
create index sandbox_subscriptions_customer on sandbox_subscriptions (customer, created);

create table sandbox_invoices (
    id                text primary key,
    customer          text    not null references sandbox_customers (id),
    subscription      text    not null references sandbox_subscriptions (id),
    line_id           text    not null unique,
    status            text    not null check (status in ('draft', 'open', 'paid', 'uncollectible', 'void')),
    billing_reason    text    not null,
    price             text    not null references sandbox_prices (id),
    quantity          bigint  not null,
    amount_due        bigint  not null,
    amount_paid       bigint  not null,
    attempt_count     integer not null,
    -- as at Stripe: the invoice's period is the one that ended (equal instants for the first invoice);
    -- the line's period is the service period the invoice charges for
    period_start      bigint  not null,
    period_end        bigint  not null,
    line_period_start bigint  not null,
    line_period_end   bigint  not null,
    number            text,
    created           bigint  not null,
    finalized_at      bigint,
    paid_at           bigint
);
create index sandbox_invoices_customer on sandbox_invoices (customer, created);
create index sandbox_invoices_subscription on sandbox_invoices (subscription, created);

create table sandbox_portal_sessions (
    id         text primary key,
    customer   text   not null references sandbox_customers (id),
    return_url text,
    created    bigint not null
);

-- Stripe keeps the first answer to a POST with an Idempotency-Key and replays it for 24 hours.
create table sandbox_idempotency_keys (
    key         text primary key,
    fingerprint text        not null,
    status      integer,
    body        text,
    created_at  timestamptz not null default now()
);

-- The outbox of webhook events: written in the transaction of the change that caused them, delivered
-- in creation order by any instance (rows are claimed with a lease), retried with backoff until 2xx.
create table sandbox_events (
    seq             bigserial primary key,
    id              text        not null unique,
    type            text        not null,
    payload         text        not null,
    created_at      timestamptz not null default now(),
    attempts        integer     not null default 0,
    next_attempt_at timestamptz not null default now(),
    last_attempt_at timestamptz,
    last_status     integer,
    last_error      text,
    delivered_at    timestamptz
);
create index sandbox_events_due on sandbox_events (next_attempt_at, seq) where delivered_at is null;
