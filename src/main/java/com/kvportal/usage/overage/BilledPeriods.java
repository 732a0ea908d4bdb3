package com.kvportal.usage.overage;

import com.kvportal.usage.reporting.StorageModel;
import io.swagger.v3.oas.annotations.media.Schema;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The SQL of usage_billed_periods: the periods whose overage went onto a provider invoice. */
@Repository
@RequiredArgsConstructor
public class BilledPeriods {

    /** A billed period as {@code GET /api/v1/usage/periods} shows it. */
    public record BilledPeriod(
            Instant periodStart,
            Instant periodEnd,
            @Schema(minimum = "0") long averageBytes,
            @Schema(minimum = "0") long overageUnits,
            @Schema(minimum = "0") long overageCents,
            @Schema(
                            description = "The provider's invoice that carries the overage.",
                            example = "in_1MtHbELkdIwHu7ixl4OzzPMv")
                    String providerInvoiceId) {}

    private final JdbcClient jdbc;

    public List<BilledPeriod> ofOrganization(UUID organizationId) {
        return jdbc.sql(
                        """
                        select period_start, period_end, average_bytes, overage_units, overage_cents, provider_invoice_id
                        from usage_billed_periods where organization_id = ?
                        order by period_start desc, created_at desc""")
                .param(organizationId)
                .query((rs, n) -> new BilledPeriod(
                        rs.getTimestamp("period_start").toInstant(),
                        rs.getTimestamp("period_end").toInstant(),
                        rs.getLong("average_bytes"),
                        rs.getLong("overage_units"),
                        rs.getLong("overage_cents"),
                        rs.getString("provider_invoice_id")))
                .list();
    }

    /** A billed period as the service recorded it, with its organization (for reconciliation). */
    public record Recorded(
            UUID organizationId,
            Instant periodStart,
            Instant periodEnd,
            long overageUnits,
            long overageCents,
            String providerInvoiceId) {}

    /** Every billed period that starts in {@code [from, to)}, oldest first. */
    public List<Recorded> startingBetween(Instant from, Instant to) {
        return jdbc.sql(
                        """
                        select organization_id, period_start, period_end, overage_units, overage_cents,
                            provider_invoice_id
                        from usage_billed_periods where period_start >= ? and period_start < ?
                        order by period_start, organization_id""")
                .params(Timestamp.from(from), Timestamp.from(to))
                .query((rs, n) -> new Recorded(
                        rs.getObject("organization_id", UUID.class),
                        rs.getTimestamp("period_start").toInstant(),
                        rs.getTimestamp("period_end").toInstant(),
                        rs.getLong("overage_units"),
                        rs.getLong("overage_cents"),
                        rs.getString("provider_invoice_id")))
                .list();
    }

    /**
     * Records the billed period unless its invoice carries one already.
     *
     * @return false when the invoice was recorded before
     */
    boolean record(
            UUID organizationId,
            String providerInvoiceId,
            @Nullable String providerInvoiceItemId,
            Instant periodStart,
            Instant periodEnd,
            StorageModel.Overage overage,
            boolean pending) {
        return jdbc.sql(
                                """
                        insert into usage_billed_periods (id, organization_id, provider_invoice_id,
                            provider_invoice_item_id, period_start, period_end, average_bytes, overage_units,
                            overage_cents, pending)
                        values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        on conflict (provider_invoice_id) do nothing""")
                        .params(
                                UUID.randomUUID(),
                                organizationId,
                                providerInvoiceId,
                                providerInvoiceItemId,
                                Timestamp.from(periodStart),
                                Timestamp.from(periodEnd),
                                overage.averageBytes(),
                                overage.units(),
                                overage.amountCents(),
                                pending)
                        .update()
                > 0;
    }
}
