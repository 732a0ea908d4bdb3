-- The purge of used and expired links (account_tokens, invitations) and of password reset requests looks rows up by
-- their expiry.
create index account_tokens_expires on account_tokens (expires_at);
create index invitations_expires on invitations (expires_at);
create index password_reset_requests_requested on password_reset_requests (requested_at);
