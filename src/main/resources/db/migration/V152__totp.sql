-- Two-step login (TOTP, RFC 6238): the shared secret (set up, then confirmed), the last time step accepted (a code is
-- never accepted twice), and the recovery codes, kept as SHA-256 digests, each usable once.
alter table customers
    add column totp_secret     text,
    add column totp_enabled_at timestamptz,
    add column totp_last_step  bigint;

create table recovery_codes (
    customer_id uuid        not null references customers (id),
    digest      bytea       not null,
    created_at  timestamptz not null default now(),
    used_at     timestamptz,
    primary key (customer_id, digest)
);
