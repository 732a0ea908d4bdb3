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

-- The periods billed before this table existed, as sent charges, so that news of them delivered again queues
-- nothing (the renewal's key is its invoice's; a final invoice's period is found by its start).
insert into usage_charge_outbox (id, organization_id, idempotency_key, provider_customer_id, provider_invoice_id,
    period_start, period_end, average_bytes, quantity, unit_amount_cents, amount_cents, currency, description,
    created_at, sent_at, billed_invoice_id, provider_invoice_item_id, pending)
select p.id, p.organization_id, 'overage:' || p.provider_invoice_id, coalesce(a.provider_customer_id, ''),
    p.provider_invoice_id, p.period_start, p.period_end, p.average_bytes, p.overage_units,
    case when p.overage_units > 0 then p.overage_cents / p.overage_units else 0 end, p.overage_cents, 'usd', '',
    p.created_at, p.created_at, p.provider_invoice_id, p.provider_invoice_item_id, p.pending
from usage_billed_periods p left join billing_accounts a on a.organization_id = p.organization_id;
