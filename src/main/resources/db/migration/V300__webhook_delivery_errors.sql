-- Why a delivery's last attempt failed when no answer came, as a code of a fixed vocabulary (never the exception's
-- text): null when an answer came (its status tells) or before the first attempt; cleared by a delivered attempt.
alter table webhook_deliveries add column last_error text check (last_error in (
    'timeout', 'connection_refused', 'connection_closed', 'unreachable', 'dns', 'tls', 'target_refused',
    'invalid_response', 'network'));
