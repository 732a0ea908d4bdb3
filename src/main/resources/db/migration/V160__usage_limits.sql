-- An organization's usage limits (docs/api.md, "Usage limits"): alert thresholds (stored for the alerts to come), a storage cap in
-- bytes and an overage cap in cents. No row: the defaults. txid is the writing transaction's id: every instance's
-- in-memory standing reads the rows written since its last snapshot (as it reads usage_samples), so a change
-- reaches verify everywhere within a refresh.
create table usage_limits (
    organization_id          uuid        primary key references organizations (id) on delete cascade,
    alert_thresholds_percent integer[]   not null,
    storage_cap_bytes        bigint      check (storage_cap_bytes >= 0),
    overage_cap_cents        bigint      check (overage_cap_cents >= 0),
    updated_at               timestamptz not null default now(),
    txid                     xid8        not null default pg_current_xact_id()
);

create index usage_limits_txid on usage_limits (txid);
