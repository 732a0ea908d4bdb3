-- One subscription per organization at a time (docs/billing.md).

-- The hosted checkout sessions the service started, so that an earlier open session is expired before another
-- starts, and so that the public success callback asks the provider only about a session of ours that is not
-- settled yet: open (may still be paid), complete (its subscription recorded), expired (by us, or found so).
create table checkout_sessions (
    id              text primary key check (id like 'cs\_%'),
    organization_id uuid        not null references organizations (id),
    customer_id     uuid        not null references customers (id),
    status          text        not null check (status in ('open', 'complete', 'expired')),
    created_at      timestamptz not null default now(),
    updated_at      timestamptz not null default now()
);
create index checkout_sessions_open on checkout_sessions (organization_id) where status = 'open';

-- A second subscription completed all the same is canceled at the provider at once and points at the one the
-- organization keeps; it never counts as the organization's (no plan, no invoices, no overage).
alter table subscriptions add column duplicate_of uuid references subscriptions (id);

-- The sandbox: each successful charge of an invoice (Stripe's invoice payment, with its payment intent and
-- charge), and refunds of them.
create table sandbox_invoice_payments (
    id             text primary key,
    invoice        text   not null references sandbox_invoices (id),
    payment_intent text   not null unique,
    charge         text   not null unique,
    amount         bigint not null check (amount > 0),
    currency       text   not null,
    created        bigint not null
);
create index sandbox_invoice_payments_invoice on sandbox_invoice_payments (invoice);

create table sandbox_refunds (
    seq            bigserial primary key,
    id             text   not null unique,
    payment_intent text   not null references sandbox_invoice_payments (payment_intent),
    amount         bigint not null check (amount > 0),
    reason         text,
    metadata       jsonb  not null default '{}',
    created        bigint not null
);
create index sandbox_refunds_payment_intent on sandbox_refunds (payment_intent, seq);
