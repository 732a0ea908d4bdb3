-- The payment sandbox's own secret key (docs/billing.md, "The sandbox's own surface"; SANDBOX_API_KEY unset): generated at the first start and
-- kept with the data, so that a restart keeps it and several instances on one database share it. One row; the
-- first instance to insert it wins (insert ... on conflict do nothing), the others read it.
create table sandbox_api_key (
    id         boolean     primary key default true check (id),
    key        text        not null check (key ~ '^sk_test_[0-9A-Za-z]{24}$'),
    created_at timestamptz not null default now()
);
