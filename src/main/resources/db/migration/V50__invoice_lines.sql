-- The lines of an invoice as the provider's invoice object lists them (lines.data[]), replaced whenever newer
-- news of the invoice carries its lines. kind: storage_overage when the line's metadata says so, else subscription.
create table invoice_lines (
    invoice_id   uuid   not null references invoices (id) on delete cascade,
    position     int    not null check (position >= 0),
    description  text,
    quantity     bigint not null,
    amount_cents bigint not null,
    kind         text   not null check (kind in ('subscription', 'storage_overage')),
    primary key (invoice_id, position)
);
