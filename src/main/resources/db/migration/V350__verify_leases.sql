-- Verify leases of holders outside the service (docs/storage-backend.md, "Verify in your own process"): a storage
-- backend's process caches verify answers under a lease like an instance's, in the same table, so that a narrowing
-- change waits for it exactly as it waits for an instance (docs/design.md, "The key cache").

-- kind: 'instance' (an instance of the service, renewed on its own connection) or 'holder' (taken and renewed over
-- HTTP with the usage token; applied_seq is what it acknowledged). stopped_at: a holder's lease that was refused a
-- renewal because it left an event unacknowledged too long; it is renewed no longer and expires at expires_at.
alter table key_cache_leases
    add column kind       text        not null default 'instance' check (kind in ('instance', 'holder')),
    add column stopped_at timestamptz;

-- The log tells holders which key changed (they know keys by id, not by digest) and whose it is.
alter table key_invalidations
    add column key_id          uuid,
    add column organization_id uuid;

update key_invalidations i
set key_id = k.id, organization_id = k.organization_id
from api_keys k
where k.digest = i.digest;

-- An organization's verify answers changed as a whole (its plan or storage standing): numbered in the same sequence
-- as the keys' invalidations, purged with them.
create table organization_invalidations (
    seq             bigint      not null,
    organization_id uuid        not null,
    created_at      timestamptz not null default clock_timestamp(),
    primary key (seq, organization_id)
);
