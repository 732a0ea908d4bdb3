-- Wrong second-factor codes (TOTP or recovery codes, at login and when turning two-step login off), counted per
-- customer and apart from wrong passwords, so that every instance and a restart see the same count: the 5th within
-- the window locks every code of the customer until codes_locked_until.
create table wrong_codes (
    customer_id uuid        not null references customers (id),
    failed_at   timestamptz not null default now()
);

create index wrong_codes_customer on wrong_codes (customer_id, failed_at);
create index wrong_codes_failed_at on wrong_codes (failed_at);

alter table customers add column codes_locked_until timestamptz;
