package com.kvportal.billing;

import com.kvportal.billing.stripe.ProviderInvoice;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The SQL of the invoices table. */
@Repository
class StoredInvoices {

    private final JdbcClient jdbc;

    StoredInvoices(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    record State(UUID id, UUID organizationId, String status, Instant providerStateAt) {}

    /** The organization's invoices, newest first; the subscription is joined by its provider id. */
    List<Invoice> ofOrganization(UUID organizationId) {
        return jdbc.sql(
                        """
                        select i.id, i.organization_id, s.id as subscription_id, i.provider_invoice_id, i.status,
                               i.amount_due_cents, i.amount_paid_cents, i.currency, i.attempt_count,
                               i.hosted_invoice_url, i.period_start, i.period_end, i.created_at, i.updated_at
                        from invoices i
                        left join subscriptions s on s.provider_subscription_id = i.provider_subscription_id
                                                 and s.organization_id = i.organization_id
                        where i.organization_id = ?
                        order by i.created_at desc, i.provider_invoice_id desc""")
                .param(organizationId)
                .query((rs, n) -> new Invoice(
                        rs.getObject("id", UUID.class),
                        rs.getObject("organization_id", UUID.class),
                        rs.getObject("subscription_id", UUID.class),
                        rs.getString("provider_invoice_id"),
                        rs.getString("status"),
                        rs.getLong("amount_due_cents"),
                        rs.getLong("amount_paid_cents"),
                        rs.getString("currency"),
                        rs.getInt("attempt_count"),
                        rs.getString("hosted_invoice_url"),
                        Sql.nullableInstant(rs, "period_start"),
                        Sql.nullableInstant(rs, "period_end"),
                        Sql.instant(rs, "created_at"),
                        Sql.instant(rs, "updated_at")))
                .list();
    }

    /** @return true when inserted; false when the provider's invoice id is known already */
    boolean insertIfAbsent(UUID organizationId, ProviderInvoice invoice, Instant stateAt) {
        return jdbc.sql(
                                """
                        insert into invoices (id, organization_id, provider_invoice_id, provider_subscription_id, status,
                            amount_due_cents, amount_paid_cents, currency, attempt_count, hosted_invoice_url,
                            period_start, period_end, provider_state_at, created_at)
                        values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        on conflict (provider_invoice_id) do nothing""")
                        .params(
                                UUID.randomUUID(),
                                organizationId,
                                invoice.id(),
                                invoice.subscription() == null
                                        ? null
                                        : invoice.subscription().value(),
                                invoice.status(),
                                invoice.amountDueCents(),
                                invoice.amountPaidCents(),
                                invoice.currency(),
                                invoice.attemptCount(),
                                invoice.hostedInvoiceUrl(),
                                Sql.timestamp(invoice.periodStart()),
                                Sql.timestamp(invoice.periodEnd()),
                                Sql.timestamp(stateAt),
                                Sql.timestamp(invoice.created()))
                        .update()
                > 0;
    }

    Optional<State> lock(String providerInvoiceId) {
        return jdbc.sql("select id, organization_id, status, provider_state_at from invoices"
                        + " where provider_invoice_id = ? for update")
                .param(providerInvoiceId)
                .query((rs, n) -> new State(
                        rs.getObject("id", UUID.class),
                        rs.getObject("organization_id", UUID.class),
                        rs.getString("status"),
                        Sql.instant(rs, "provider_state_at")))
                .optional();
    }

    void update(UUID id, ProviderInvoice invoice, Instant stateAt) {
        jdbc.sql(
                        """
                        update invoices set provider_subscription_id = coalesce(?, provider_subscription_id),
                            status = ?, amount_due_cents = ?, amount_paid_cents = ?, currency = ?, attempt_count = ?,
                            hosted_invoice_url = coalesce(?, hosted_invoice_url), period_start = ?, period_end = ?,
                            provider_state_at = ?, updated_at = now()
                        where id = ?""")
                .params(
                        invoice.subscription() == null
                                ? null
                                : invoice.subscription().value(),
                        invoice.status(),
                        invoice.amountDueCents(),
                        invoice.amountPaidCents(),
                        invoice.currency(),
                        invoice.attemptCount(),
                        invoice.hostedInvoiceUrl(),
                        Sql.timestamp(invoice.periodStart()),
                        Sql.timestamp(invoice.periodEnd()),
                        Sql.timestamp(stateAt),
                        id)
                .update();
    }
}
