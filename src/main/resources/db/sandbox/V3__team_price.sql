-- The sandbox's price of the team tier (STRIPE_PRICE_TEAM names another with Stripe).
insert into sandbox.sandbox_prices (id, product, nickname, unit_amount, currency, recurring_interval, created)
values ('price_sandbox_team', 'prod_sandbox_team', 'Team', 10000, 'usd', 'month', 1767225600)
on conflict do nothing;
