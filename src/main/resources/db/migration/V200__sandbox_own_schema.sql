-- The payment sandbox (com.kvportal.sandbox) gets a schema of its own, `sandbox`, which it migrates itself
-- (classpath:db/sandbox, and only while it is the payment provider: STRIPE_SECRET_KEY unset). Its tables, made in
-- `public` by V20, V90, V110 and V120 in every install, leave `public`:
-- - where the sandbox was used, they move to `sandbox` with their rows, indexes, constraints and sequences; its own
--   migration then takes them as they are. Used: a table of it other than the seeded sandbox_prices holds a row (at
--   its first start the sandbox writes sandbox_api_key, unless SANDBOX_API_KEY is set; every customer, session and
--   event it keeps is a row). An install on real Stripe writes none: no sandbox bean exists there;
-- - anywhere else they are dropped (nothing is in them but the seeded price): an install on real Stripe keeps no
--   sandbox table anywhere.
-- Where they are absent, nothing happens.
do
$$
declare
    tables text[] := array['sandbox_prices', 'sandbox_customers', 'sandbox_checkout_sessions',
        'sandbox_subscriptions', 'sandbox_invoices', 'sandbox_portal_sessions', 'sandbox_idempotency_keys',
        'sandbox_events', 'sandbox_invoice_items', 'sandbox_api_key', 'sandbox_invoice_payments',
        'sandbox_refunds'];
    used boolean := false;
    tbl text;
begin
    foreach tbl in array tables loop
        if tbl <> 'sandbox_prices' and not used and to_regclass(format('public.%I', tbl)) is not null then
            execute format('select exists (select from public.%I)', tbl) into used;
        end if;
    end loop;
    if used then
        create schema if not exists sandbox;
        foreach tbl in array tables loop
            if to_regclass(format('public.%I', tbl)) is not null then
                execute format('alter table public.%I set schema sandbox', tbl);
            end if;
        end loop;
    else
        -- one statement, so that the tables' references among each other do not order the drops
        execute 'drop table if exists '
            || (select string_agg(format('public.%I', t), ', ') from unnest(tables) as t);
    end if;
end
$$;
