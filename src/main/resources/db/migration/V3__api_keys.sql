-- API keys: only the SHA-256 digest of the raw key is stored, under a unique index that verify looks up.
create table api_keys (
    id              uuid primary key,
    project_id      uuid        not null references projects (id),
    organization_id uuid        not null references organizations (id),
    customer_id     uuid        not null references customers (id),
    name            text        not null,
    digest          bytea       not null,
    permissions     text[]      not null,
    expires_at      timestamptz not null,
    last_used_at    timestamptz,
    revoked_at      timestamptz,
    created_at      timestamptz not null default now(),
    constraint api_keys_digest_length check (octet_length(digest) = 32)
);
create unique index api_keys_digest on api_keys (digest);
create index api_keys_project_live on api_keys (project_id, created_at desc) where revoked_at is null;
