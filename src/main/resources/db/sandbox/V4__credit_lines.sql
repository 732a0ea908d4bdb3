-- A plan change credits the unused time of the old price as a negative line (Stripe's proration), so an item's unit
-- amount may be below zero, as at Stripe.
alter table sandbox.sandbox_invoice_items drop constraint if exists sandbox_invoice_items_unit_amount_decimal_check;
