-- Limits counted exactly over a sliding window (at most N within any window, across every instance): one row per
-- request taken, until the window after it ends: tests and retries of a webhook endpoint, invitation mails and
-- email-change links.
create table window_limits (
    key   text        not null,
    until timestamptz not null
);

create index window_limits_key on window_limits (key, until desc);
create index window_limits_until on window_limits (until);
