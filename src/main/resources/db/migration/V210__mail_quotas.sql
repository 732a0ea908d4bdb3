-- Mail that a request makes the service send to others (invitations, email-change links) is counted here, one row per
-- message, per quota it counts against (e.g. 'invitation-to:bob@example.com'), so that every instance, and an
-- instance after a restart, sees the same counts. A row goes once its window has passed (expires_at).
create table mail_quota_events (
    quota      text        not null,
    sent_at    timestamptz not null default now(),
    expires_at timestamptz not null
);
create index mail_quota_events_quota on mail_quota_events (quota, expires_at);
create index mail_quota_events_expires on mail_quota_events (expires_at);

-- The purge of used and expired links (account_tokens, invitations) and of password reset requests looks rows up by
-- their expiry.
create index account_tokens_expires on account_tokens (expires_at);
create index invitations_expires on invitations (expires_at);
create index password_reset_requests_requested on password_reset_requests (requested_at);
