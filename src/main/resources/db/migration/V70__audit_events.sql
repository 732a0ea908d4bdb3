-- The audit log: one row per action, written in the transaction of the change it records.
-- Read newest first per organization by keyset on (occurred_at, id); never holds a raw key, digest or password.
create table audit_events (
    id              uuid primary key,
    organization_id uuid        not null,
    occurred_at     timestamptz not null,
    action          text        not null,
    actor_type      text        not null check (actor_type in ('customer', 'api_key', 'provider', 'system')),
    actor_id        text,
    actor_label     text,
    target_type     text,
    target_id       text,
    target_label    text,
    project_id      uuid,
    ip              text,
    user_agent      text,
    details         jsonb       not null default '{}'
);
create index audit_events_page on audit_events (organization_id, occurred_at desc, id desc);
create index audit_events_retention on audit_events (occurred_at);
