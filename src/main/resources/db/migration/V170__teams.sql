-- Teams (contract section 13): five roles, pending invitations, and organizations that can be deleted while their
-- invoices and audit lines stay (a deleted organization keeps its row, marked, with no member left).
alter table memberships drop constraint memberships_role_check;
update memberships set role = 'developer' where role = 'member';
alter table memberships add constraint memberships_role_check
    check (role in ('owner', 'admin', 'developer', 'billing', 'viewer'));
create index memberships_organization on memberships (organization_id, created_at);

alter table organizations add column deleted_at timestamptz;

-- A pending invitation: its link's token kept only as the SHA-256 digest; one pending invitation per address and
-- organization (inviting again replaces it).
create table invitations (
    id              uuid primary key,
    organization_id uuid        not null references organizations (id),
    email           text        not null,
    role            text        not null check (role in ('admin', 'developer', 'billing', 'viewer')),
    invited_by      uuid        not null references customers (id),
    digest          bytea       not null unique,
    created_at      timestamptz not null default now(),
    expires_at      timestamptz not null
);
create unique index invitations_one_per_address on invitations (organization_id, lower(email));
