-- Storage usage (package com.kvportal.usage): the samples the storage backend reports, and the periods whose
-- overage has been billed.

-- One row per accepted sample; the reporter's id is the key, so a sample sent twice is stored once (the first
-- wins). seq orders samples of one project taken at the same instant (the later report wins); txid is the
-- transaction that stored the row, so that a poller can read every row committed since its last snapshot.
create table usage_samples (
    id              text        primary key check (length(id) between 1 and 100),
    project_id      uuid        not null references projects (id),
    organization_id uuid        not null references organizations (id),
    bytes           bigint      not null check (bytes >= 0),
    at              timestamptz not null,
    seq             bigserial   not null,
    txid            xid8        not null default pg_current_xact_id(),
    received_at     timestamptz not null default now()
);
create index usage_samples_project_at on usage_samples (project_id, at desc, seq desc);
create index usage_samples_organization_at on usage_samples (organization_id, at);
create index usage_samples_txid on usage_samples (txid);

-- A period whose overage was computed and put on a provider invoice; the invoice (the renewal draft, or the
-- final invoice of a subscription that ended) is the key, so a period is billed at most once.
create table usage_billed_periods (
    id                       uuid        primary key,
    organization_id          uuid        not null references organizations (id),
    provider_invoice_id      text        not null unique check (provider_invoice_id like 'in\_%'),
    provider_invoice_item_id text,
    period_start             timestamptz not null,
    period_end               timestamptz not null,
    average_bytes            bigint      not null check (average_bytes >= 0),
    overage_units            bigint      not null check (overage_units >= 0),
    overage_cents            bigint      not null check (overage_cents >= 0),
    -- the item could not join its invoice (no longer a draft) and waits for the customer's next invoice
    pending                  boolean     not null default false,
    created_at               timestamptz not null default now()
);
create index usage_billed_periods_organization on usage_billed_periods (organization_id, period_start desc);
