package com.kvportal.billing.invoice;

import com.kvportal.billing.Invoice;
import com.kvportal.billing.InvoiceLine;
import com.kvportal.billing.InvoiceStatus;
import com.kvportal.billing.ids.ProviderInvoiceId;
import com.kvportal.billing.stripe.ProviderInvoice;
import com.kvportal.common.database.Sql;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The SQL of the invoices table and of their lines. */
@Repository
@RequiredArgsConstructor
public class StoredInvoices {

    private final JdbcClient jdbc;

    /**
     * The organization's invoices with their lines, newest first; the subscription is joined by its provider id. The
     * invoices of a duplicate subscription (canceled and refunded at once) are not the organization's bills.
     */
    public List<Invoice> ofOrganization(UUID organizationId) {
        Map<UUID, List<InvoiceLine>> lines = new HashMap<>();
        jdbc.sql(
                        """
                        select l.invoice_id, l.description, l.quantity, l.amount_cents, l.kind
                        from invoice_lines l join invoices i on i.id = l.invoice_id
                        where i.organization_id = ?
                        order by l.invoice_id, l.position""")
                .param(organizationId)
                .query(rs -> {
                    lines.computeIfAbsent(rs.getObject("invoice_id", UUID.class), id -> new ArrayList<>())
                            .add(line(rs));
                });
        return jdbc.sql(
                        """
                        select i.id, i.organization_id, s.id as subscription_id, i.provider_invoice_id, i.status,
                               i.subtotal_cents, i.discount_cents, i.tax_cents, i.amount_due_cents, i.amount_paid_cents, i.currency, i.attempt_count,
                               i.hosted_invoice_url, i.period_start, i.period_end, i.created_at, i.updated_at
                        from invoices i
                        left join subscriptions s on s.provider_subscription_id = i.provider_subscription_id
                                                 and s.organization_id = i.organization_id
                        where i.organization_id = ? and s.duplicate_of is null
                        order by i.created_at desc, i.period_start desc nulls last, i.recorded_at desc, i.id""")
                .param(organizationId)
                .query((rs, n) -> {
                    UUID id = rs.getObject("id", UUID.class);
                    return new Invoice(
                            id,
                            rs.getObject("organization_id", UUID.class),
                            rs.getObject("subscription_id", UUID.class),
                            rs.getString("provider_invoice_id"),
                            Sql.wire(rs, "status", InvoiceStatus.class),
                            rs.getLong("subtotal_cents"),
                            rs.getLong("discount_cents"),
                            rs.getLong("tax_cents"),
                            rs.getLong("amount_due_cents"),
                            rs.getLong("amount_paid_cents"),
                            rs.getString("currency"),
                            rs.getInt("attempt_count"),
                            rs.getString("hosted_invoice_url"),
                            Sql.nullableInstant(rs, "period_start"),
                            Sql.nullableInstant(rs, "period_end"),
                            Sql.instant(rs, "created_at"),
                            Sql.instant(rs, "updated_at"),
                            List.copyOf(lines.getOrDefault(id, List.of())));
                })
                .list();
    }

    /**
     * The amounts recorded of the organizations' settled invoices (not drafts, whose amounts still change) created in
     * {@code [from, to)}, oldest first.
     */
    public List<Amounts> settledAmountsCreatedBetween(Instant from, Instant to) {
        return jdbc.sql(
                        """
                        select organization_id, provider_invoice_id, subtotal_cents, discount_cents, tax_cents,
                               amount_due_cents
                        from invoices where created_at >= ? and created_at < ? and status <> 'draft'
                        order by created_at, provider_invoice_id""")
                .params(Sql.timestamp(from), Sql.timestamp(to))
                .query((rs, n) -> new Amounts(
                        rs.getObject("organization_id", UUID.class),
                        new ProviderInvoiceId(rs.getString("provider_invoice_id")),
                        rs.getLong("subtotal_cents"),
                        rs.getLong("discount_cents"),
                        rs.getLong("tax_cents"),
                        rs.getLong("amount_due_cents")))
                .list();
    }

    /** An invoice's recorded amounts. */
    public record Amounts(
            UUID organizationId,
            ProviderInvoiceId providerInvoiceId,
            long subtotalCents,
            long discountCents,
            long taxCents,
            long amountDueCents) {}

    /** @return the new row's id; empty when the provider's invoice id is known already */
    Optional<UUID> insertIfAbsent(UUID organizationId, ProviderInvoice invoice, Instant stateAt) {
        UUID id = UUID.randomUUID();
        boolean inserted = jdbc.sql(
                                """
                        insert into invoices (id, organization_id, provider_invoice_id, provider_subscription_id, status,
                            subtotal_cents, discount_cents, tax_cents, amount_due_cents, amount_paid_cents, currency,
                            attempt_count, hosted_invoice_url, period_start, period_end, provider_state_at, created_at)
                        values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        on conflict (provider_invoice_id) do nothing""")
                        .params(concat(
                                new Object[] {id, organizationId, invoice.id().value()},
                                state(invoice, stateAt),
                                Sql.timestamp(invoice.created())))
                        .update()
                > 0;
        if (!inserted) {
            return Optional.empty();
        }
        replaceLines(id, invoice.lines());
        return Optional.of(id);
    }

    Optional<LockedInvoice> lock(ProviderInvoiceId providerInvoiceId) {
        return jdbc.sql("select id, organization_id, status, provider_state_at from invoices"
                        + " where provider_invoice_id = ? for update")
                .param(providerInvoiceId.value())
                .query((rs, n) -> new LockedInvoice(
                        rs.getObject("id", UUID.class),
                        rs.getObject("organization_id", UUID.class),
                        Sql.wire(rs, "status", InvoiceStatus.class),
                        Sql.instant(rs, "provider_state_at")))
                .optional();
    }

    /** Writes the provider's newer state of the invoice; its lines too, when the news lists them. */
    void update(UUID id, ProviderInvoice invoice, Instant stateAt) {
        jdbc.sql(
                        """
                        update invoices set provider_subscription_id = coalesce(?, provider_subscription_id),
                            status = ?, subtotal_cents = ?, discount_cents = ?, tax_cents = ?, amount_due_cents = ?,
                            amount_paid_cents = ?, currency = ?, attempt_count = ?,
                            hosted_invoice_url = coalesce(?, hosted_invoice_url), period_start = ?, period_end = ?,
                            provider_state_at = ?, updated_at = now()
                        where id = ?""")
                .params(concat(new Object[0], state(invoice, stateAt), id))
                .update();
        replaceLines(id, invoice.lines());
    }

    /**
     * The provider's state of the invoice as SQL parameters, in the columns' order of both the insert and the
     * update: subscription, status, amounts (subtotal, discount, tax, due, paid), currency, attempts, hosted URL, period, and when it was stated.
     */
    private static Object[] state(ProviderInvoice invoice, Instant stateAt) {
        return new Object[] {
            invoice.subscription() == null ? null : invoice.subscription().value(),
            invoice.status().wire(),
            invoice.subtotalCents(),
            invoice.discountCents(),
            invoice.taxCents(),
            invoice.amountDueCents(),
            invoice.amountPaidCents(),
            invoice.currency(),
            invoice.attemptCount(),
            invoice.hostedInvoiceUrl(),
            Sql.timestamp(invoice.periodStart()),
            Sql.timestamp(invoice.periodEnd()),
            Sql.timestamp(stateAt)
        };
    }

    private static Object[] concat(Object[] before, Object[] middle, @Nullable Object last) {
        Object[] all = Arrays.copyOf(before, before.length + middle.length + 1);
        System.arraycopy(middle, 0, all, before.length, middle.length);
        all[all.length - 1] = last;
        return all;
    }

    /** Replaces the invoice's lines by {@code lines}; null (the news does not list them) keeps those stored. */
    private void replaceLines(UUID invoiceId, @Nullable List<InvoiceLine> lines) {
        if (lines == null) {
            return;
        }
        jdbc.sql("delete from invoice_lines where invoice_id = ?")
                .param(invoiceId)
                .update();
        for (int position = 0; position < lines.size(); position++) {
            InvoiceLine line = lines.get(position);
            jdbc.sql(
                            """
                            insert into invoice_lines (invoice_id, position, description, quantity, amount_cents, kind)
                            values (?, ?, ?, ?, ?, ?)""")
                    .params(
                            invoiceId,
                            position,
                            line.description(),
                            line.quantity(),
                            line.amountCents(),
                            line.kind().wire())
                    .update();
        }
    }

    private static InvoiceLine line(ResultSet rs) throws SQLException {
        return new InvoiceLine(
                rs.getString("description"),
                rs.getLong("quantity"),
                rs.getLong("amount_cents"),
                InvoiceLine.Kind.ofWire(rs.getString("kind")));
    }
}
