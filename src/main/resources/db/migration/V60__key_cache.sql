-- verify's key cache (README, "Verify from memory"): the leases of the instances that cache keys, and the
-- invalidation log that every change narrowing a key writes in its own transaction.

-- One row: the last invalidation sequence number handed out, and the highest one purged from the log.
-- Narrowing transactions take its row lock to number their invalidation, so sequence numbers commit in order:
-- whoever sees seq N committed sees every smaller one committed too.
create table key_invalidation_sequence (
    id             boolean primary key default true check (id),
    seq            bigint not null default 0,
    purged_through bigint not null default 0
);
insert into key_invalidation_sequence default values;

-- The log: the digests a narrowing change touched, under the sequence number of that change.
create table key_invalidations (
    seq        bigint      not null,
    digest     bytea       not null,
    created_at timestamptz not null default now(),
    primary key (seq, digest)
);

-- An instance may serve keys from memory only while it holds a live lease; applied_seq is how far into the
-- log it has dropped its entries. expires_at is on the database's clock.
create table key_cache_leases (
    instance_id uuid primary key,
    applied_seq bigint      not null,
    expires_at  timestamptz not null,
    started_at  timestamptz not null default now()
);
