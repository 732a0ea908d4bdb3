-- The scan that tells verify-lease holders about keys nearing their expiry (apikey.cache.ExpiringKeys) reads live
-- keys by expires_at, every few seconds.
create index api_keys_live_expiry on api_keys (expires_at) where revoked_at is null;
