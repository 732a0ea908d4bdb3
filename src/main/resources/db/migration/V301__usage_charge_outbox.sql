-- The usage charges billing puts on provider invoices (package com.kvportal.billing.invoice), written in the
-- transaction that bills a period (a renewal draft's event, a subscription's end) and sent to the provider after it
-- commits, under the idempotency key, so that a crash between the commit and the call loses nothing: an unsent row
-- is sent again by any instance, and the same key makes the same item.
create table usage_charge_outbox (
    id                       uuid        primary key,
    organization_id          uuid        not null references organizations (id),
    idempotency_key          text        not null unique,
    provider_customer_id     text        not null,
    -- the renewal draft the item joins; null: the item is billed on a final invoice of its own
    provider_invoice_id      text,
    period_start             timestamptz not null,
    period_end               timestamptz not null,
    average_bytes            bigint      not null check (average_bytes >= 0),
    quantity                 bigint      not null check (quantity >= 0),
    unit_amount_cents        bigint      not null check (unit_amount_cents >= 0),
    amount_cents             bigint      not null check (amount_cents >= 0),
    currency                 text        not null,
    description              text        not null,
    created_at               timestamptz not null default now(),
    -- set once the provider answered: the invoice that carries it, its item, whether it went pending
    sent_at                  timestamptz,
    billed_invoice_id        text,
    provider_invoice_item_id text,
    pending                  boolean     not null default false
);
create index usage_charge_outbox_unsent on usage_charge_outbox (created_at) where sent_at is null;
create index usage_charge_outbox_period on usage_charge_outbox (organization_id, period_start);
