-- Outgoing webhooks (docs/webhooks.md): each organization's endpoints, the events written in the transaction of the change
-- they tell of, and one delivery per event and subscribed endpoint, claimed by one instance at a time.
create table webhook_endpoints (
    id                    uuid primary key,
    organization_id       uuid        not null references organizations (id),
    url                   text        not null,
    -- null: every type, now and future (answered as ["*"])
    events                text[],
    description           text        not null default '',
    disabled              boolean     not null default false,
    -- the signing secrets: the current one, and the one it replaced while the rotation's overlap lasts
    secret                text        not null,
    previous_secret       text,
    previous_secret_until timestamptz,
    -- the first failed attempt since the last delivered one: failing everything for long disables the endpoint
    failing_since         timestamptz,
    created_at            timestamptz not null default now()
);
create index webhook_endpoints_organization on webhook_endpoints (organization_id, created_at);

create table webhook_events (
    -- msg_ + 26 base32 characters: the body's id and every attempt's webhook-id
    id              text primary key,
    organization_id uuid        not null,
    type            text        not null,
    -- the body as sent, byte for byte on every attempt
    body            text        not null,
    created_at      timestamptz not null default now()
);

create table webhook_deliveries (
    id              uuid primary key,
    endpoint_id     uuid        not null references webhook_endpoints (id) on delete cascade,
    event_id        text        not null references webhook_events (id),
    status          text        not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
    attempts        int         not null default 0,
    -- attempts made by the schedule; a manual retry adds an attempt without moving the schedule on
    scheduled_attempts int      not null default 0,
    -- a retry asked for (POST .../retry): one more attempt, whatever the status
    retry_requested boolean     not null default false,
    response_status int,
    duration_ms     int,
    last_attempt_at timestamptz,
    -- pending: when the schedule's next attempt is due
    next_attempt_at timestamptz,
    -- an attempt in flight holds the delivery until then: past it (its instance died) another one may try
    leased_until    timestamptz,
    created_at      timestamptz not null default now()
);
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending';
create index webhook_deliveries_retry on webhook_deliveries (id) where retry_requested;
create index webhook_deliveries_endpoint on webhook_deliveries (endpoint_id, created_at desc, id desc);
create index webhook_deliveries_event on webhook_deliveries (event_id);

-- The expiry notices sent (api_key.expiring), once per key and lead.
create table api_key_expiry_notices (
    key_id      uuid        not null references api_keys (id),
    days_before int         not null,
    sent_at     timestamptz not null default now(),
    primary key (key_id, days_before)
);
