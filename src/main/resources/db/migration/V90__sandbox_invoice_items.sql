-- Invoices beyond a subscription's single line (docs/billing.md, "The overage on the renewal invoice"): renewal drafts that wait for their
-- invoice.created to be answered (or for a grace period), standalone invoices made from pending items,
-- and invoice items that become lines of a draft or wait, pending, for the customer's next invoice.
alter table sandbox_invoices
    alter column subscription drop not null,
    alter column price drop not null,
    alter column line_id drop not null,
    -- auto_advance: Stripe finalizes and charges the draft by itself; finalizes_at: when, at the latest
    add column auto_advance boolean not null default true,
    add column finalizes_at bigint,
    -- the invoice.created event of a draft: once it is delivered, the draft is finalized and charged
    add column created_event text;
create index sandbox_invoices_drafts on sandbox_invoices (finalizes_at) where status = 'draft';

create table sandbox_invoice_items (
    seq                 bigserial primary key,
    id                  text    not null unique,
    customer            text    not null references sandbox_customers (id),
    -- null while pending: the item joins the customer's next invoice
    invoice             text references sandbox_invoices (id),
    line_id             text    not null unique,
    quantity            bigint  not null check (quantity >= 0),
    unit_amount_decimal numeric not null check (unit_amount_decimal >= 0),
    amount              bigint  not null,
    currency            text    not null,
    description         text,
    period_start        bigint  not null,
    period_end          bigint  not null,
    metadata            jsonb   not null default '{}',
    created             bigint  not null
);
create index sandbox_invoice_items_pending on sandbox_invoice_items (customer, seq) where invoice is null;
create index sandbox_invoice_items_invoice on sandbox_invoice_items (invoice, seq);
