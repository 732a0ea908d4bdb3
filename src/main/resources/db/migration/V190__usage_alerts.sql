-- Each organization's alert state (docs/api.md, "Usage limits"): the thresholds it crossed and was alerted about (armed again once
-- storage falls 5 % of the allowance below them) and why writes were last announced as refused (null: allowed).
-- An instance evaluating an organization holds its row (FOR UPDATE), so one instance at a time decides; the state
-- change, the alert's audit line and its mail (mail_outbox) commit together, so no crash sends one twice or loses it.
create table usage_alert_state (
    organization_id   uuid        primary key references organizations (id) on delete cascade,
    crossed_percent   integer[]   not null default '{}',
    writes_refused    text        check (writes_refused in ('storage_cap', 'overage_cap', 'allowance_reached')),
    updated_at        timestamptz not null default now()
);
