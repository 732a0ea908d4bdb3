-- Abuse limits (signup and login per client address, logins overall): one token bucket per key, shared by every
-- instance. tat is the bucket's theoretical arrival time (GCRA); a row whose tat has passed is a full bucket.
create table request_limits (
    key     text        primary key,
    tat     timestamptz not null,
    allowed boolean     not null
);

create index request_limits_tat on request_limits (tat);
