-- The daily reconciliation of billed periods with the provider's invoice items (package com.kvportal.usage): the
-- instance that inserts a day's row runs that day's reconciliation, so it runs once however many instances there
-- are; a run that fails deletes its row, so that the next check (of any instance) tries again.
create table usage_reconciliation_runs (
    day         date        primary key,
    started_at  timestamptz not null default now(),
    finished_at timestamptz,
    differences integer check (differences >= 0)
);
