package com.kvportal.sandbox.invoice;

import com.kvportal.sandbox.SandboxDatabase;
import com.kvportal.sandbox.store.StoredRows;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.stereotype.Repository;

/** The SQL of the sandbox's invoice payments (a charge with its payment intent) and their refunds. */
@Repository
@RequiredArgsConstructor
public class SandboxPayments {

    /** One successful charge of an invoice. */
    record StoredInvoicePayment(
            String id,
            String invoice,
            String paymentIntent,
            String charge,
            long amount,
            String currency,
            long created) {}

    /** A refund of (part of) a payment, shown with the payment's charge and currency as Stripe shows it. */
    record StoredRefund(
            String id,
            String paymentIntent,
            String charge,
            long amount,
            String currency,
            @Nullable String reason,
            Map<String, String> metadata,
            long created) {}

    private static final String REFUNDS =
            """
            select r.id, r.payment_intent, p.charge, r.amount, p.currency, r.reason, r.metadata, r.created
            from sandbox.sandbox_refunds r join sandbox.sandbox_invoice_payments p on p.payment_intent = r.payment_intent
            """;
    private static final RowMapper<StoredRefund> REFUND = StoredRows.reading(StoredRefund.class);

    private final SandboxDatabase database;

    void insert(StoredInvoicePayment p) {
        StoredRows.write(
                database,
                """
                        insert into sandbox.sandbox_invoice_payments (id, invoice, payment_intent, charge, amount, currency,
                            created)
                        values (:id, :invoice, :paymentIntent, :charge, :amount, :currency, :created)""",
                p);
    }

    List<StoredInvoicePayment> ofInvoice(String invoice, int limit) {
        return database.sql(
                        "select * from sandbox.sandbox_invoice_payments where invoice = ? order by created desc, id limit ?")
                .params(invoice, limit)
                .query(StoredInvoicePayment.class)
                .list();
    }

    /** The payment of this payment intent or charge, locked until commit (refunds of it are taken in turn). */
    Optional<StoredInvoicePayment> lock(@Nullable String paymentIntent, @Nullable String charge) {
        return database.sql(
                        """
                        select * from sandbox.sandbox_invoice_payments
                        where payment_intent = ? or charge = ? for update""")
                .params(paymentIntent, charge)
                .query(StoredInvoicePayment.class)
                .optional();
    }

    long refunded(String paymentIntent) {
        return database.sql("select coalesce(sum(amount), 0) from sandbox.sandbox_refunds where payment_intent = ?")
                .param(paymentIntent)
                .query(Long.class)
                .single();
    }

    void insert(StoredRefund r) {
        StoredRows.write(
                database,
                """
                        insert into sandbox.sandbox_refunds (id, payment_intent, amount, reason, metadata, created)
                        values (:id, :paymentIntent, :amount, :reason, :metadata::jsonb, :created)""",
                r);
    }

    Optional<StoredRefund> refund(String id) {
        return database.sql(REFUNDS + " where r.id = ?").param(id).query(REFUND).optional();
    }

    /** Refunds, newest first, of the payment intent or the charge when one is given. */
    List<StoredRefund> refunds(@Nullable String paymentIntent, @Nullable String charge, int limit) {
        return database.sql(
                        REFUNDS
                                + """
                        where (cast(:pi as text) is null or r.payment_intent = :pi)
                          and (cast(:charge as text) is null or p.charge = :charge)
                        order by r.seq desc limit :limit""")
                .param("pi", paymentIntent)
                .param("charge", charge)
                .param("limit", limit)
                .query(REFUND)
                .list();
    }
}
