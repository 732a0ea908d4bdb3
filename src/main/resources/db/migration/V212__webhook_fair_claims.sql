-- Fair delivery across organizations: a retry asked for waits its turn by when it was asked for (it used to have no
-- time and went first), and each organization's attempts in flight (leased rows) are counted at every claim.
alter table webhook_deliveries add column retry_requested_at timestamptz;
update webhook_deliveries set retry_requested_at = now() where retry_requested;
drop index webhook_deliveries_retry;
alter table webhook_deliveries drop column retry_requested;

create index webhook_deliveries_endpoint_due on webhook_deliveries (endpoint_id, next_attempt_at)
    where status = 'pending';
create index webhook_deliveries_endpoint_retry on webhook_deliveries (endpoint_id, retry_requested_at)
    where retry_requested_at is not null;
create index webhook_deliveries_leased on webhook_deliveries (leased_until) where leased_until is not null;
