-- Verifications of each key per outcome, in buckets of a minute, an hour and a day (UTC), each added to at every flush
-- of an instance's counts (one transaction per instance every 10 s). Minutes are kept 24 hours, hours 30 days, days
-- 400 days (a periodic purge by bucket_start). A key's counts go with it (keys are revoked, not deleted, so they stay).
create table key_verifications_minute (
    key_id            uuid        not null references api_keys (id) on delete cascade,
    bucket_start      timestamptz not null,
    valid             bigint      not null default 0,
    revoked           bigint      not null default 0,
    expired           bigint      not null default 0,
    disabled          bigint      not null default 0,
    ip_not_allowed    bigint      not null default 0,
    rate_limited      bigint      not null default 0,
    credits_exhausted bigint      not null default 0,
    primary key (key_id, bucket_start)
);
create index key_verifications_minute_purge on key_verifications_minute (bucket_start);

create table key_verifications_hour (like key_verifications_minute including all);
alter table key_verifications_hour add foreign key (key_id) references api_keys (id) on delete cascade;

create table key_verifications_day (like key_verifications_minute including all);
alter table key_verifications_day add foreign key (key_id) references api_keys (id) on delete cascade;

-- the organization's reads go from its keys to their buckets (the primary keys above)
create index api_keys_organization on api_keys (organization_id, project_id);
