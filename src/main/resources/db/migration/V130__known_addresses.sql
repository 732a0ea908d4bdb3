-- Client addresses from which someone signed up or logged in lately: the overall login circuit spares them, so that
-- a flood from fresh addresses cannot lock customers out of their own address. Rows older than the TTL are purged.
create table known_addresses (
    address text        primary key,
    seen_at timestamptz not null
);

create index known_addresses_seen_at on known_addresses (seen_at);

-- failed logins are purged once their window (and any lock) has passed
create index login_failures_window_start on login_failures (window_start);
