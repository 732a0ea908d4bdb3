-- Customers (people with a portal login), organizations (the billing unit) and their projects.
create table customers (
    id            uuid primary key,
    email         text        not null,
    password_hash text        not null,
    created_at    timestamptz not null default now()
);
create unique index customers_email_key on customers (lower(email));

create table organizations (
    id         uuid primary key,
    name       text        not null,
    owner_id   uuid        not null references customers (id),
    created_at timestamptz not null default now()
);

create table memberships (
    organization_id uuid        not null references organizations (id),
    customer_id     uuid        not null references customers (id),
    role            text        not null check (role in ('owner', 'member')),
    created_at      timestamptz not null default now(),
    primary key (organization_id, customer_id)
);
create index memberships_customer on memberships (customer_id);

create table projects (
    id              uuid primary key,
    organization_id uuid        not null references organizations (id),
    name            text        not null,
    created_at      timestamptz not null default now()
);
create index projects_organization on projects (organization_id, created_at);

-- Failed logins per email address, shared by every instance.
create table login_failures (
    email           text primary key,
    failures        int         not null,
    window_start    timestamptz not null,
    locked_until    timestamptz
);
