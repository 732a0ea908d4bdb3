-- Keys the customer shapes: metadata, an external id, an on/off switch and the addresses a key may be used from;
-- and each organization's key policy.

alter table api_keys
    add column metadata    jsonb   not null default '{}'::jsonb,
    add column external_id text,
    add column enabled     boolean not null default true,
    -- null: from anywhere; else canonical addresses and CIDR blocks, e.g. {203.0.113.7,2001:db8::/32}
    add column allowed_ips text[];

-- GET /api/v1/api-keys?external_id=... lists a project's live keys with that external id.
create index api_keys_external_id on api_keys (project_id, external_id) where external_id is not null;

-- A missing row is the default policy: no maximum lifetime, no required allowed addresses.
create table key_policies (
    organization_id     uuid primary key references organizations (id) on delete cascade,
    max_lifetime_days   integer check (max_lifetime_days between 1 and 365),
    require_allowed_ips boolean not null default false,
    updated_at          timestamptz not null default now()
);
