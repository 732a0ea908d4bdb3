-- Rate limits and credits of a key (docs/design.md, "Rate limits and credits").
-- A key's rate limits: [{name, limit, duration_ms}], at most 5; [] for none.
create table api_key_ratelimits (
    key_id     uuid  primary key references api_keys (id) on delete cascade,
    ratelimits jsonb not null default '[]'
);

-- Budgets of a window leased to instances: granted never passes the limit (the lease's WHERE keeps it so).
create table api_key_rate_windows (
    key_id       uuid   not null references api_keys (id) on delete cascade,
    name         text   not null,
    window_start bigint not null,
    window_end   bigint not null,
    granted      bigint not null check (granted >= 0),
    last_take    bigint not null default 0,
    primary key (key_id, name, window_start)
);
create index api_key_rate_windows_end on api_key_rate_windows (window_end);

-- A key's credits: what is left at the key (reservations of instances are taken out of it already).
-- generation moves on with every top-up and refill: a reservation of an older generation is void.
create table api_key_credits (
    key_id             uuid        primary key references api_keys (id) on delete cascade,
    remaining          bigint      not null check (remaining >= 0),
    generation         bigint      not null default 1,
    basis              bigint      not null,
    refill_amount      bigint,
    refill_interval    text        check (refill_interval in ('day', 'month')),
    refill_day         int,
    next_refill_at     timestamptz,
    low_notified       boolean     not null default false,
    exhausted_notified boolean     not null default false
);
