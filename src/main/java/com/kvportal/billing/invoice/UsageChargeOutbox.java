package com.kvportal.billing.invoice;

import com.kvportal.billing.Plan;
import com.kvportal.billing.UsageCharge;
import com.kvportal.billing.ids.ProviderCustomerId;
import com.kvportal.billing.ids.ProviderId;
import com.kvportal.billing.ids.ProviderInvoiceId;
import com.kvportal.billing.ids.ProviderInvoiceItemId;
import com.kvportal.common.database.Sql;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The SQL of usage_charge_outbox: the usage charges to bill, written with their period, sent after commit. */
@Repository
@RequiredArgsConstructor
class UsageChargeOutbox {

    /** A charge to send: to the renewal draft {@code providerInvoiceId}, or (null) on a final invoice. */
    record Queued(
            UUID id,
            UUID organizationId,
            String idempotencyKey,
            ProviderCustomerId providerCustomerId,
            @Nullable ProviderInvoiceId providerInvoiceId,
            Instant periodStart,
            Instant periodEnd,
            UsageCharge charge) {}

    private final JdbcClient jdbc;

    /** @return false when a charge of this key was queued before */
    boolean queue(Queued charge) {
        UsageCharge c = charge.charge();
        return jdbc.sql(
                                """
                        insert into usage_charge_outbox (id, organization_id, idempotency_key, provider_customer_id,
                            provider_invoice_id, period_start, period_end, average_bytes, quantity, unit_amount_cents,
                            amount_cents, currency, description)
                        values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        on conflict (idempotency_key) do nothing""")
                        .params(
                                charge.id(),
                                charge.organizationId(),
                                charge.idempotencyKey(),
                                charge.providerCustomerId().value(),
                                ProviderId.valueOf(charge.providerInvoiceId()),
                                Sql.timestamp(charge.periodStart()),
                                Sql.timestamp(charge.periodEnd()),
                                c.averageBytes(),
                                c.quantity(),
                                c.unitAmountCents(),
                                c.amountCents(),
                                Plan.CURRENCY,
                                c.description())
                        .update()
                > 0;
    }

    boolean contains(String idempotencyKey) {
        return jdbc.sql("select exists (select 1 from usage_charge_outbox where idempotency_key = ?)")
                .param(idempotencyKey)
                .query(Boolean.class)
                .single();
    }

    /** Whether a charge of the organization's period starting at {@code periodStart} was queued. */
    boolean containsPeriod(UUID organizationId, Instant periodStart) {
        return jdbc.sql(
                        "select exists (select 1 from usage_charge_outbox where organization_id = ? and period_start = ?)")
                .params(organizationId, Sql.timestamp(periodStart))
                .query(Boolean.class)
                .single();
    }

    /**
     * Locks the unsent charge until the end of the transaction; empty when it was sent. A charge another thread or
     * instance is sending is waited for (not skipped), so that whoever queued it answers only once it is billed: the
     * deletion of an organization and the provider's news of the same ended subscription queue the same charge.
     */
    Optional<Queued> lockUnsent(UUID id) {
        return lockUnsentWhere("id = ?", id);
    }

    /** {@link #lockUnsent(UUID)} by the charge's idempotency key. */
    Optional<Queued> lockUnsent(String idempotencyKey) {
        return lockUnsentWhere("idempotency_key = ?", idempotencyKey);
    }

    private Optional<Queued> lockUnsentWhere(String condition, Object value) {
        return jdbc.sql(
                        """
                        select id, organization_id, idempotency_key, provider_customer_id, provider_invoice_id,
                            period_start, period_end, average_bytes, quantity, unit_amount_cents, amount_cents,
                            description
                        from usage_charge_outbox where %s and sent_at is null
                        for update"""
                                .formatted(condition))
                .param(value)
                .query((rs, n) -> new Queued(
                        rs.getObject("id", UUID.class),
                        rs.getObject("organization_id", UUID.class),
                        rs.getString("idempotency_key"),
                        new ProviderCustomerId(rs.getString("provider_customer_id")),
                        ProviderId.ofNullable(rs.getString("provider_invoice_id"), ProviderInvoiceId::new),
                        Sql.instant(rs, "period_start"),
                        Sql.instant(rs, "period_end"),
                        new UsageCharge(
                                rs.getLong("average_bytes"),
                                rs.getLong("quantity"),
                                rs.getLong("unit_amount_cents"),
                                rs.getLong("amount_cents"),
                                rs.getString("description"))))
                .optional();
    }

    /** The unsent charges queued longer ago than {@code age}, oldest first. */
    List<UUID> unsentOlderThan(Duration age) {
        return jdbc.sql(
                        """
                        select id from usage_charge_outbox
                        where sent_at is null and created_at < now() - make_interval(secs => ?)
                        order by created_at limit 100""")
                .param((double) age.toMillis() / 1000)
                .query(UUID.class)
                .list();
    }

    void markSent(
            UUID id,
            ProviderInvoiceId billedInvoiceId,
            @Nullable ProviderInvoiceItemId providerInvoiceItemId,
            boolean pending) {
        jdbc.sql(
                        """
                        update usage_charge_outbox set sent_at = now(), billed_invoice_id = ?,
                            provider_invoice_item_id = ?, pending = ?
                        where id = ?""")
                .params(billedInvoiceId.value(), ProviderId.valueOf(providerInvoiceItemId), pending, id)
                .update();
    }
}
