-- Billing: the plans, each organization's customer at the payment provider, its subscriptions and invoices
-- (kept current by the provider's webhook), and the webhook events already applied.

-- Plan ids are fixed so that they stay the same across restarts and databases.
create table plans (
    id                  uuid primary key,
    tier                text   not null unique,
    name                text   not null,
    storage_bytes       bigint not null check (storage_bytes >= 0),
    price_cents         bigint not null check (price_cents >= 0),
    overage_bytes       bigint not null check (overage_bytes >= 0),
    overage_price_cents bigint not null check (overage_price_cents >= 0)
);
insert into plans (id, tier, name, storage_bytes, price_cents, overage_bytes, overage_price_cents) values
    ('6b1e0c8a-0f5e-4d4e-9a51-2f0c3f1a0001', 'free', 'Free', 1073741824, 0, 0, 0),
    ('6b1e0c8a-0f5e-4d4e-9a51-2f0c3f1a0002', 'pro', 'Pro', 107374182400, 2000, 10737418240, 200);

-- One provider customer per organization, never two, and never one customer for two organizations.
create table billing_accounts (
    organization_id      uuid primary key references organizations (id),
    provider_customer_id text        not null unique check (provider_customer_id like 'cus\_%'),
    -- the portal customer who opened the account (the first checkout); subscriptions name them
    customer_id          uuid        not null references customers (id),
    created_at           timestamptz not null default now()
);

create table subscriptions (
    id                       uuid primary key,
    organization_id          uuid        not null references organizations (id),
    customer_id              uuid        not null references customers (id),
    plan_id                  uuid        not null references plans (id),
    status                   text        not null check (status in ('incomplete', 'incomplete_expired', 'trialing',
                                                 'active', 'past_due', 'canceled', 'unpaid', 'paused')),
    provider_customer_id     text        not null,
    provider_subscription_id text        not null unique check (provider_subscription_id like 'sub\_%'),
    current_period_start     timestamptz,
    current_period_end       timestamptz,
    cancel_at                timestamptz,
    -- the provider time of the state this row reflects (an event's created, or when it was fetched):
    -- an older event never overwrites it
    provider_state_at        timestamptz not null,
    created_at               timestamptz not null default now(),
    updated_at               timestamptz not null default now()
);
create index subscriptions_organization on subscriptions (organization_id, created_at desc);

-- The subscription is linked by its provider id, so that an invoice event may arrive before its subscription.
create table invoices (
    id                       uuid primary key,
    organization_id          uuid        not null references organizations (id),
    provider_invoice_id      text        not null unique check (provider_invoice_id like 'in\_%'),
    provider_subscription_id text,
    status                   text        not null check (status in ('draft', 'open', 'paid', 'uncollectible', 'void')),
    amount_due_cents         bigint      not null,
    amount_paid_cents        bigint      not null,
    currency                 text        not null,
    attempt_count            int         not null,
    hosted_invoice_url       text,
    period_start             timestamptz,
    period_end               timestamptz,
    provider_state_at        timestamptz not null,
    -- when the provider created the invoice
    created_at               timestamptz not null,
    updated_at               timestamptz not null default now()
);
create index invoices_organization on invoices (organization_id, created_at desc);

-- Each webhook event is applied once: its id is inserted in the same transaction as its effect.
create table processed_webhook_events (
    event_id     text primary key,
    type         text        not null,
    processed_at timestamptz not null default now()
);
