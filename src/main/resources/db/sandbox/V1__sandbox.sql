-- The built-in Stripe stand-in (package com.kvportal.sandbox), in its own schema: its price, customers, checkout
-- and portal sessions, subscriptions, invoices and their items, payments and refunds, idempotency keys, the outbox
-- of webhook events and its own secret key. Migrated by the sandbox itself (SandboxDatabase), only while it is the
-- payment provider. Times of Stripe objects are unix seconds, as Stripe shows them; times the sandbox only uses
-- itself are timestamptz.
--
-- Every statement is idempotent: product migration V200 moves the tables a developer's sandbox made in `public`
-- (V20, V90, V110, V120) here with their rows, and this migration then finds them as it would make them.

create table if not exists sandbox.sandbox_prices (
    id                 text primary key,
    product            text   not null,
    nickname           text   not null,
    unit_amount        bigint not null check (unit_amount >= 0),
    currency           text   not null,
    recurring_interval text   not null check (recurring_interval in ('day', 'week', 'month', 'year')),
    created            bigint not null
);
insert into sandbox.sandbox_prices (id, product, nickname, unit_amount, currency, recurring_interval, created)
values ('price_sandbox_pro', 'prod_sandbox_pro', 'Pro', 2000, 'usd', 'month', 1767225600)
on conflict do nothing;

create table if not exists sandbox.sandbox_customers (
    id           text primary key,
    email        text,
    name         text,
    metadata     jsonb  not null default '{}',
    -- what the customer's card does at the next charge (the sandbox's stand-in for a payment method)
    card_outcome text   not null default 'succeeded' check (card_outcome in ('succeeded', 'card_declined')),
    created      bigint not null
);

create table if not exists sandbox.sandbox_checkout_sessions (
    id                    text primary key,
    status                text   not null check (status in ('open', 'complete', 'expired')),
    payment_status        text   not null check (payment_status in ('paid', 'unpaid', 'no_payment_required')),
    mode                  text   not null,
    customer              text references sandbox.sandbox_customers (id),
    customer_email        text,
    client_reference_id   text,
    metadata              jsonb  not null default '{}',
    price                 text   not null references sandbox.sandbox_prices (id),
    quantity              bigint not null check (quantity > 0),
    success_url           text   not null,
    cancel_url            text,
    subscription_metadata jsonb  not null default '{}',
    subscription          text,
    created               bigint not null,
    expires_at            bigint not null,
    completed_at          bigint
);

create table if not exists sandbox.sandbox_subscriptions (
    id                   text primary key,
    customer             text    not null references sandbox.sandbox_customers (id),
    status               text    not null,
    price                text    not null references sandbox.sandbox_prices (id),
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
create index if not exists sandbox_subscriptions_customer on sandbox.sandbox_subscriptions (customer, created);

-- A subscription's invoices carry its single line (subscription, price, line_id); renewal drafts wait for their
-- invoice.created to be answered (or for a grace period); standalone invoices are made from pending items.
create table if not exists sandbox.sandbox_invoices (
    id                text primary key,
    customer          text    not null references sandbox.sandbox_customers (id),
    subscription      text references sandbox.sandbox_subscriptions (id),
    line_id           text unique,
    status            text    not null check (status in ('draft', 'open', 'paid', 'uncollectible', 'void')),
    billing_reason    text    not null,
    price             text references sandbox.sandbox_prices (id),
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
    paid_at           bigint,
    -- auto_advance: Stripe finalizes and charges the draft by itself; finalizes_at: when, at the latest
    auto_advance      boolean not null default true,
    finalizes_at      bigint,
    -- the invoice.created event of a draft: once it is delivered, the draft is finalized and charged
    created_event     text
);
create index if not exists sandbox_invoices_customer on sandbox.sandbox_invoices (customer, created);
create index if not exists sandbox_invoices_subscription on sandbox.sandbox_invoices (subscription, created);
create index if not exists sandbox_invoices_drafts on sandbox.sandbox_invoices (finalizes_at) where status = 'draft';

-- Invoice items become lines of a draft, or wait, pending, for the customer's next invoice.
create table if not exists sandbox.sandbox_invoice_items (
    seq                 bigserial primary key,
    id                  text    not null unique,
    customer            text    not null references sandbox.sandbox_customers (id),
    -- null while pending: the item joins the customer's next invoice
    invoice             text references sandbox.sandbox_invoices (id),
    line_id             text    not null unique,
    quantity            bigint  not null check (quantity >= 0),
    unit_amount_decimal numeric not null check (unit_amount_decimal >= 0),
    amount              bigint  not null,
    currency            text    not null,
    description         text,
    period_start        bigint  not null,
    period_end          bigint  not null,
    metadata            jsonb   not null default '{}',
    created             bigint  not null
);
create index if not exists sandbox_invoice_items_pending on sandbox.sandbox_invoice_items (customer, seq)
    where invoice is null;
create index if not exists sandbox_invoice_items_invoice on sandbox.sandbox_invoice_items (invoice, seq);

-- Each successful charge of an invoice (Stripe's invoice payment, with its payment intent and charge), and refunds
-- of them.
create table if not exists sandbox.sandbox_invoice_payments (
    id             text primary key,
    invoice        text   not null references sandbox.sandbox_invoices (id),
    payment_intent text   not null unique,
    charge         text   not null unique,
    amount         bigint not null check (amount > 0),
    currency       text   not null,
    created        bigint not null
);
create index if not exists sandbox_invoice_payments_invoice on sandbox.sandbox_invoice_payments (invoice);

create table if not exists sandbox.sandbox_refunds (
    seq            bigserial primary key,
    id             text   not null unique,
    payment_intent text   not null references sandbox.sandbox_invoice_payments (payment_intent),
    amount         bigint not null check (amount > 0),
    reason         text,
    metadata       jsonb  not null default '{}',
    created        bigint not null
);
create index if not exists sandbox_refunds_payment_intent on sandbox.sandbox_refunds (payment_intent, seq);

create table if not exists sandbox.sandbox_portal_sessions (
    id         text primary key,
    customer   text   not null references sandbox.sandbox_customers (id),
    return_url text,
    created    bigint not null
);

-- Stripe keeps the first answer to a POST with an Idempotency-Key and replays it for 24 hours.
create table if not exists sandbox.sandbox_idempotency_keys (
    key         text primary key,
    fingerprint text        not null,
    status      integer,
    body        text,
    created_at  timestamptz not null default now()
);

-- The outbox of webhook events: written in the transaction of the change that caused them, delivered
-- in creation order by any instance (rows are claimed with a lease), retried with backoff until 2xx.
create table if not exists sandbox.sandbox_events (
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
create index if not exists sandbox_events_due on sandbox.sandbox_events (next_attempt_at, seq)
    where delivered_at is null;

-- The sandbox's own secret key (docs/billing.md, "The sandbox's own surface"; SANDBOX_API_KEY unset): generated at the first start and kept with
-- the data, so that a restart keeps it and several instances on one database share it. One row; the first instance
-- to insert it wins (insert ... on conflict do nothing), the others read it.
create table if not exists sandbox.sandbox_api_key (
    id         boolean     primary key default true check (id),
    key        text        not null check (key ~ '^sk_test_[0-9A-Za-z]{24}$'),
    created_at timestamptz not null default now()
);
