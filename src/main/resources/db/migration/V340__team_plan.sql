-- The third tier: Team, 1 TiB for $100.00 a month, then $15.00 per further 100 GiB. Its id is fixed like the
-- others', so that it stays the same across restarts and databases.
insert into plans (id, tier, name, storage_bytes, price_cents, overage_bytes, overage_price_cents) values
    ('6b1e0c8a-0f5e-4d4e-9a51-2f0c3f1a0003', 'team', 'Team', 1099511627776, 10000, 107374182400, 1500);
