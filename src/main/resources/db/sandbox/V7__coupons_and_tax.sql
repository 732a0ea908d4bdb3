-- Coupons, promotion codes and the discounts they make, and automatic tax by the customer's country (Stripe's
-- shapes: coupon, promotion_code, discount). Idempotent like V1; independent of the versions before it.

create table if not exists sandbox.sandbox_coupons (
    id                 text primary key,
    name               text,
    -- exactly one of percent_off (0 < p <= 100) and amount_off (with its currency)
    percent_off        numeric check (percent_off > 0 and percent_off <= 100),
    amount_off         bigint check (amount_off > 0),
    currency           text,
    duration           text   not null check (duration in ('once', 'repeating', 'forever')),
    duration_in_months integer check (duration_in_months > 0),
    max_redemptions    bigint check (max_redemptions > 0),
    redeem_by          bigint,
    times_redeemed     bigint not null default 0,
    metadata           jsonb  not null default '{}',
    created            bigint not null,
    check ((percent_off is null) <> (amount_off is null)),
    check ((duration = 'repeating') = (duration_in_months is not null))
);

create table if not exists sandbox.sandbox_promotion_codes (
    id              text primary key,
    code            text    not null,
    coupon          text    not null references sandbox.sandbox_coupons (id),
    active          boolean not null default true,
    expires_at      bigint,
    max_redemptions bigint check (max_redemptions > 0),
    times_redeemed  bigint  not null default 0,
    metadata        jsonb   not null default '{}',
    created         bigint  not null
);
-- as at Stripe, a code is case-insensitive and unique among the active codes
create unique index if not exists sandbox_promotion_codes_active_code
    on sandbox.sandbox_promotion_codes (upper(code)) where active;

-- A coupon applied: first to a checkout session, then (once paid) to the subscription it made. It applies to the
-- subscription's invoices made before "end" (null: forever); a "once" discount ends at its first invoice.
create table if not exists sandbox.sandbox_discounts (
    id               text   primary key,
    coupon           text   not null references sandbox.sandbox_coupons (id),
    promotion_code   text references sandbox.sandbox_promotion_codes (id),
    checkout_session text,
    customer         text,
    subscription     text,
    start            bigint,
    "end"            bigint,
    created          bigint not null
);
create index if not exists sandbox_discounts_subscription on sandbox.sandbox_discounts (subscription);
create index if not exists sandbox_discounts_checkout_session on sandbox.sandbox_discounts (checkout_session);

-- What a checkout session asks of the hosted page: a typed promotion code, the billing address, automatic tax.
alter table sandbox.sandbox_checkout_sessions
    add column if not exists allow_promotion_codes      boolean not null default false,
    add column if not exists billing_address_collection text    not null default 'auto',
    add column if not exists automatic_tax              boolean not null default false;

-- The customer's billing address (its country decides the tax), and whether a subscription's invoices are taxed.
alter table sandbox.sandbox_customers add column if not exists address_country text;
alter table sandbox.sandbox_subscriptions add column if not exists automatic_tax boolean not null default false;

-- An invoice's amounts: subtotal (its lines), the discount it carries (coupon terms copied: a coupon never changes)
-- and the tax (the rate of the customer's country when automatic tax is on); amount_due = subtotal - discount + tax.
alter table sandbox.sandbox_invoices
    add column if not exists subtotal        bigint,
    add column if not exists discount        text,
    add column if not exists percent_off     numeric,
    add column if not exists amount_off      bigint,
    add column if not exists tax_country     text,
    add column if not exists tax_percent     numeric;
update sandbox.sandbox_invoices set subtotal = amount_due where subtotal is null;
alter table sandbox.sandbox_invoices alter column subtotal set not null;

-- A proration line (a plan change's credit of unused time), as Stripe marks it.
alter table sandbox.sandbox_invoice_items add column if not exists proration boolean not null default false;
