-- An invoice's amounts as the provider computed them: the subtotal of its lines, the discount of its coupons and the
-- tax (amount_due_cents = subtotal_cents - discount_cents + tax_cents), taken from the provider's invoice, never
-- recomputed here. An invoice recorded before had neither discount nor tax: its subtotal is its amount due.
alter table invoices
    add column subtotal_cents bigint,
    add column discount_cents bigint not null default 0 check (discount_cents >= 0),
    add column tax_cents      bigint not null default 0;
update invoices set subtotal_cents = amount_due_cents;
alter table invoices alter column subtotal_cents set not null;

-- Lines of two more kinds: a plan change's proration (the credit of unused time) and the invoice's discount.
alter table invoice_lines drop constraint invoice_lines_kind_check;
alter table invoice_lines add constraint invoice_lines_kind_check
    check (kind in ('subscription', 'storage_overage', 'proration', 'discount'));
