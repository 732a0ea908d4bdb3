package com.kvportal.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.stripe.Stripe;
import com.stripe.exception.SignatureVerificationException;
import com.stripe.exception.StripeException;
import com.stripe.model.Event;
import com.stripe.model.Invoice;
import com.stripe.model.InvoiceItem;
import com.stripe.model.StripeObject;
import com.stripe.model.checkout.Session;
import com.stripe.net.Webhook;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.Import;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.TestPropertySource;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * Delivery of the outbox to a webhook this test controls: every event is signed so that stripe-java's own
 * {@code Webhook.constructEvent} accepts it, deserializes at stripe-java's API version, arrives in creation order,
 * and is retried with doubling waits until it is accepted.
 */
@Import(SandboxEventDeliveryTest.Receiver.class)
@TestPropertySource(
        properties = {
            "kvportal.sandbox.webhook-path=" + SandboxEventDeliveryTest.Receiver.PATH,
            "kvportal.sandbox.draft-grace=" + SandboxEventDeliveryTest.GRACE_SECONDS + "s",
            // the retries' doubling waits, shortened from 1 s, 2 s, 4 s: the same rule without waiting seconds
            "kvportal.sandbox.first-retry=" + SandboxEventDeliveryTest.FIRST_RETRY_MILLIS + "ms",
            "kvportal.sandbox.poll-interval=20ms"
        })
class SandboxEventDeliveryTest extends SandboxTest {

    static final int GRACE_SECONDS = 8;

    static final long FIRST_RETRY_MILLIS = 500;

    /** A wait of {@code factor} times the first retry's. */
    private static Duration retries(double factor) {
        return Duration.ofMillis(Math.round(FIRST_RETRY_MILLIS * factor));
    }

    /**
     * A webhook that refuses the first attempt of every event, every attempt of marked events until released, and
     * every invoice.created about a customer whose email holds {@link #HOLD_DRAFT}.
     */
    @RestController
    static class Receiver {
        static final String PATH = "/test/sandbox-webhook";
        static final String MARK = "always-fail";
        static final String HOLD_DRAFT = "hold-draft";

        record Delivery(String eventId, long receivedAtNanos, String payload, String signature, int answered) {}

        final List<Delivery> deliveries = Collections.synchronizedList(new ArrayList<>());
        final Set<String> seen = ConcurrentHashMap.newKeySet();
        final AtomicBoolean releaseMarked = new AtomicBoolean();

        @PostMapping(PATH)
        ResponseEntity<Void> receive(@RequestBody String payload, @RequestHeader("Stripe-Signature") String signature) {
            String id = JSON.readTree(payload).get("id").asString();
            boolean refuse = seen.add(id)
                    || (payload.contains(MARK) && !releaseMarked.get())
                    || (payload.contains("\"invoice.created\"") && payload.contains(HOLD_DRAFT));
            int status = refuse ? 503 : 200;
            deliveries.add(new Delivery(id, System.nanoTime(), payload, signature, status));
            return ResponseEntity.status(status).build();
        }

        List<Delivery> of(String eventId) {
            synchronized (deliveries) {
                return deliveries.stream()
                        .filter(d -> d.eventId().equals(eventId))
                        .toList();
            }
        }
    }

    @org.springframework.beans.factory.annotation.Autowired
    Receiver receiver;

    @Test
    void shouldDeliverEveryEventSignedInOrderAfterARetry() throws Exception {
        Session session = openCheckout("delivered@example.com");
        String subscriptionId = payAndSubscribe(session);
        card(session.getCustomer(), "{\"outcome\":\"card_declined\"}");
        String renewal = advance(subscriptionId).json().get("latest_invoice").asString();
        // the renewal is charged once its invoice.created is accepted (here at the second attempt)
        await("the declined renewal", Duration.ofSeconds(30), () -> eventTypesAbout(renewal)
                .contains("invoice.payment_failed"));
        card(session.getCustomer(), "{\"outcome\":\"succeeded\"}");
        cancelAtPeriodEnd(subscriptionId);
        advance(subscriptionId);
        List<String> ids = eventIdsOfCustomer(session.getCustomer());

        await(
                "delivery of every event",
                Duration.ofSeconds(60),
                () -> jdbc.sql(
                                        "select count(*) from sandbox.sandbox_events where delivered_at is null and id in (:ids)")
                                .param("ids", ids)
                                .query(Long.class)
                                .single()
                        == 0);

        Set<String> types = new LinkedHashSet<>();
        for (String id : ids) {
            List<Receiver.Delivery> attempts = receiver.of(id);
            assertThat(attempts).extracting(Receiver.Delivery::answered).containsExactly(503, 200);
            assertThat(Duration.ofNanos(
                            attempts.get(1).receivedAtNanos() - attempts.get(0).receivedAtNanos()))
                    .isGreaterThanOrEqualTo(retries(0.9));
            Receiver.Delivery accepted = attempts.get(1);
            Event event = Webhook.constructEvent(accepted.payload(), accepted.signature(), provider.webhookSecret());
            assertThat(event.getId()).isEqualTo(id);
            assertThat(event.getApiVersion()).isEqualTo(Stripe.API_VERSION);
            assertThat(event.getLivemode()).isFalse();
            StripeObject object = event.getDataObjectDeserializer().getObject().orElse(null);
            assertThat(object).as("data.object of %s", event.getType()).isNotNull();
            types.add(event.getType());
            assertThatThrownBy(() -> Webhook.constructEvent(accepted.payload(), accepted.signature(), "whsec_other"))
                    .isInstanceOf(SignatureVerificationException.class);
        }
        assertThat(types)
                .contains(
                        "customer.created",
                        "customer.subscription.created",
                        "invoice.paid",
                        "checkout.session.completed",
                        "invoice.payment_failed",
                        "customer.subscription.updated",
                        "customer.subscription.deleted");
        List<String> firstAttemptOrder;
        synchronized (receiver.deliveries) {
            firstAttemptOrder = receiver.deliveries.stream()
                    .filter(d -> d.answered() == 503)
                    .map(Receiver.Delivery::eventId)
                    .filter(ids::contains)
                    .distinct()
                    .toList();
        }
        assertThat(firstAttemptOrder).containsExactlyElementsOf(ids);
        Map<String, Object> row = jdbc.sql(
                        "select attempts, last_status, last_error from sandbox.sandbox_events where id = ?")
                .param(ids.get(0))
                .query()
                .singleRow();
        assertThat(row).containsEntry("attempts", 2).containsEntry("last_status", 200);
        assertThat(row.get("last_error")).isNull();
    }

    @Test
    void shouldRetryWithDoublingWaitsUntilTheWebhookAccepts() throws StripeException {
        String customerId = newCustomer(Receiver.MARK + "@example.com");
        String eventId = jdbc.sql(
                        "select id from sandbox.sandbox_events where type = 'customer.created' and payload like ?")
                .param("%" + customerId + "%")
                .query(String.class)
                .single();

        // received by the webhook, and recorded by the worker once the answer is back
        await(
                "three refused attempts, recorded",
                Duration.ofSeconds(30),
                () -> receiver.of(eventId).size() >= 3
                        && jdbc.sql("select attempts from sandbox.sandbox_events where id = ?")
                                        .param(eventId)
                                        .query(Integer.class)
                                        .single()
                                >= 3);

        Map<String, Object> failing = jdbc.sql(
                        "select attempts, last_status, last_error, delivered_at, next_attempt_at > now() as waiting "
                                + "from sandbox.sandbox_events where id = ?")
                .param(eventId)
                .query()
                .singleRow();
        assertThat((Integer) failing.get("attempts")).isGreaterThanOrEqualTo(3);
        assertThat(failing.get("last_status")).isEqualTo(503);
        assertThat((String) failing.get("last_error")).startsWith("HTTP 503");
        assertThat(failing.get("delivered_at")).isNull();
        List<Receiver.Delivery> attempts = receiver.of(eventId);
        Duration firstWait = Duration.ofNanos(
                attempts.get(1).receivedAtNanos() - attempts.get(0).receivedAtNanos());
        Duration secondWait = Duration.ofNanos(
                attempts.get(2).receivedAtNanos() - attempts.get(1).receivedAtNanos());
        // the waits double: never shorter than the schedule; the upper bounds only catch a missing backoff, since a
        // loaded machine delays a scheduled attempt by hundreds of milliseconds
        assertThat(firstWait).isBetween(retries(0.9), retries(6));
        assertThat(secondWait).isBetween(retries(1.9), retries(8));

        receiver.releaseMarked.set(true);
        await("delivery once the webhook accepts", Duration.ofSeconds(30), () -> jdbc.sql(
                        "select delivered_at is not null from sandbox.sandbox_events where id = ?")
                .param(eventId)
                .query(Boolean.class)
                .single());

        assertThat(receiver.of(eventId).stream()
                        .map(Receiver.Delivery::answered)
                        .collect(Collectors.toList()))
                .endsWith(200)
                .hasSizeGreaterThanOrEqualTo(4);
    }

    @Test
    void shouldFinalizeARenewalPromptlyOnceItsInvoiceCreatedIsAnswered() throws StripeException {
        String subscriptionId = payAndSubscribe(openCheckout("prompt-renewal@example.com"));
        String invoiceId = advance(subscriptionId).json().get("latest_invoice").asString();

        // the receiver refuses the first attempt: the draft waits for the retry (FIRST_RETRY_MILLIS) later
        assertThat(stripeClient().v1().invoices().retrieve(invoiceId).getStatus())
                .isEqualTo("draft");
        Invoice paid = awaitInvoice(invoiceId, "paid");
        Map<String, Object> draft = jdbc.sql(
                        "select created_event, created + ? as grace_ends from sandbox.sandbox_invoices where id = ?")
                .params(GRACE_SECONDS, invoiceId)
                .query()
                .singleRow();
        assertThat(receiver.of((String) draft.get("created_event")))
                .extracting(Receiver.Delivery::answered)
                .containsExactly(503, 200);
        // finalized on the answer, before the grace would have done it
        assertThat(paid.getStatusTransitions().getFinalizedAt()).isLessThan((Long) draft.get("grace_ends"));
        assertThat(eventTypesAbout(invoiceId))
                .containsExactly("invoice.created", "invoice.finalized", "invoice.paid", "invoice.payment_succeeded");
    }

    @Test
    void shouldFinalizeARenewalWhoseInvoiceCreatedIsNeverAnsweredAfterTheGrace() throws StripeException {
        Session session = openCheckout(Receiver.HOLD_DRAFT + "@example.com");
        String subscriptionId = payAndSubscribe(session);
        long advancedAt = System.nanoTime();

        String invoiceId = advance(subscriptionId).json().get("latest_invoice").asString();
        // during the grace the draft still takes items as lines
        InvoiceItem item = stripeClient()
                .v1()
                .invoiceItems()
                .create(overageItem(session.getCustomer(), 5, new BigDecimal("200"))
                        .setInvoice(invoiceId)
                        .build());
        assertThat(item.getInvoice()).isEqualTo(invoiceId);

        Invoice paid = awaitInvoice(invoiceId, "paid");

        assertThat(Duration.ofNanos(System.nanoTime() - advancedAt))
                .isGreaterThanOrEqualTo(Duration.ofSeconds(GRACE_SECONDS - 1));
        assertThat(jdbc.sql("select delivered_at is null from sandbox.sandbox_events e join sandbox.sandbox_invoices i"
                                + " on i.created_event = e.id where i.id = ?")
                        .param(invoiceId)
                        .query(Boolean.class)
                        .single())
                .isTrue();
        assertThat(paid.getAmountPaid()).isEqualTo(3000L);
        assertThat(paid.getLines().getData()).hasSize(2);
    }
}
