-- Email verification, password reset and email change: a customer's verified address, and the links' tokens,
-- each kept only as its SHA-256 digest, single use, expiring.
alter table customers add column email_verified_at timestamptz;

create table account_tokens (
    digest      bytea primary key,
    customer_id uuid        not null references customers (id),
    purpose     text        not null check (purpose in ('verify_email', 'reset_password', 'change_email')),
    -- the address the link went to: verification and change hold only for it
    email       text        not null,
    resent      boolean     not null default false,
    created_at  timestamptz not null default now(),
    expires_at  timestamptz not null,
    used_at     timestamptz
);
create index account_tokens_customer on account_tokens (customer_id, purpose, created_at);

-- Password reset requests, known address or not, for the limits per email address and per client address.
create table password_reset_requests (
    email        text        not null,
    client       text        not null,
    requested_at timestamptz not null default now()
);
create index password_reset_requests_email on password_reset_requests (lower(email), requested_at);
create index password_reset_requests_client on password_reset_requests (client, requested_at);
