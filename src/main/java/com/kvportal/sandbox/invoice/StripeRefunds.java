package com.kvportal.sandbox.invoice;

import com.kvportal.sandbox.events.SandboxEvents;
import com.kvportal.sandbox.invoice.SandboxPayments.StoredInvoicePayment;
import com.kvportal.sandbox.invoice.SandboxPayments.StoredRefund;
import com.kvportal.sandbox.stripe.StripeError;
import com.kvportal.sandbox.stripe.StripeId;
import com.kvportal.sandbox.stripe.StripeJson;
import com.kvportal.sandbox.stripe.StripeParams;
import com.stripe.model.InvoicePayment;
import com.stripe.model.Refund;
import com.stripe.model.StripeCollection;
import java.time.Clock;
import java.util.Map;
import java.util.Set;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The payments of invoices ({@code GET /v1/invoice_payments}: each successful charge, with its payment intent and
 * charge) and refunds of them ({@code /v1/refunds}), as Stripe shows them: a refund names the charge and the payment
 * intent, and a payment is refunded at most once in full.
 */
@Service
@RequiredArgsConstructor
public class StripeRefunds {

    private static final Set<String> REASONS = Set.of("duplicate", "fraudulent", "requested_by_customer");

    private final SandboxPayments payments;
    private final SandboxEvents events;
    private final Clock clock;

    /** The invoice's payments, newest first. */
    public StripeCollection<InvoicePayment> invoicePayments(@Nullable String invoice, int limit) {
        if (invoice == null) {
            throw StripeError.missing("invoice");
        }
        return StripeJson.page(
                payments.ofInvoice(invoice, limit + 1), limit, StripeRefunds::invoicePayment, "/v1/invoice_payments");
    }

    public Refund retrieve(String id) {
        return payments.refund(id).map(StripeRefunds::refund).orElseThrow(() -> StripeError.noSuch("refund", id, "id"));
    }

    public StripeCollection<Refund> list(@Nullable String paymentIntent, @Nullable String charge, int limit) {
        return StripeJson.page(
                payments.refunds(paymentIntent, charge, limit + 1), limit, StripeRefunds::refund, "/v1/refunds");
    }

    /** {@code POST /v1/refunds}: of a payment intent or a charge, in full unless {@code amount} says less. */
    @Transactional
    public Refund create(StripeParams params) {
        params.allowOnly(
                Set.of("payment_intent", "charge", "amount", "reason", "metadata"),
                Set.of("refund_application_fee", "reverse_transfer", "instructions_email", "origin"));
        String paymentIntent = params.text("payment_intent");
        String charge = params.text("charge");
        if (paymentIntent == null && charge == null) {
            throw StripeError.missing("payment_intent");
        }
        if (paymentIntent != null && charge != null) {
            throw StripeError.onlyOneOf("charge", "charge", "payment_intent");
        }
        StoredInvoicePayment payment = payments.lock(paymentIntent, charge)
                .orElseThrow(() -> paymentIntent != null
                        ? StripeError.noSuchParam("payment_intent", paymentIntent, "payment_intent")
                        : StripeError.noSuchParam("charge", charge, "charge"));
        long unrefunded = payment.amount() - payments.refunded(payment.paymentIntent());
        if (unrefunded <= 0) {
            throw StripeError.state(
                    "charge_already_refunded", "Charge " + payment.charge() + " has already been refunded.");
        }
        Long amount = params.integer("amount");
        if (amount != null && (amount < 1 || amount > unrefunded)) {
            throw StripeError.invalid(
                    "amount",
                    "Refund amount (" + StripeJson.money(amount == null ? 0 : amount)
                            + ") is greater than unrefunded amount on charge (" + StripeJson.money(unrefunded) + ")");
        }
        String reason = params.text("reason");
        if (reason != null && !REASONS.contains(reason)) {
            throw StripeError.invalid("reason", "reason must be one of duplicate, fraudulent, requested_by_customer.");
        }
        StoredRefund stored = new StoredRefund(
                StripeId.REFUND.next(),
                payment.paymentIntent(),
                payment.charge(),
                amount == null ? unrefunded : amount,
                payment.currency(),
                reason,
                StripeParams.merged(Map.of(), params.metadata("metadata")),
                clock.instant().getEpochSecond());
        payments.insert(stored);
        Refund refund = refund(stored);
        events.emit("refund.created", refund);
        return refund;
    }

    private static InvoicePayment invoicePayment(StoredInvoicePayment p) {
        return StripeJson.model(
                InvoicePayment.class,
                "invoice_payment",
                p,
                Map.of(
                        "amount_paid", p.amount(),
                        "amount_requested", p.amount(),
                        "is_default", true,
                        "payment", Map.of("type", "payment_intent", "payment_intent", p.paymentIntent()),
                        "status", "paid",
                        "status_transitions", Map.of("paid_at", p.created())));
    }

    private static Refund refund(StoredRefund r) {
        return StripeJson.model(Refund.class, "refund", r, Map.of("status", "succeeded"));
    }
}
