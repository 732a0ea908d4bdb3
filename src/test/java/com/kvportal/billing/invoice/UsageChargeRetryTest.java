package com.kvportal.billing.invoice;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.billing.UsageCharge;
import com.kvportal.billing.ids.ProviderCustomerId;
import com.kvportal.billing.invoice.UsageChargeOutbox.Queued;
import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.stream.StreamSupport;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

/**
 * A usage charge is sent to the provider only after the transaction that queued it commits, so the crash this pins is
 * the one between that commit and the call (the charge is queued, nothing is at the provider), and the one after the
 * call before its answer is recorded: the retry sends it under the same idempotency key, the provider makes the same
 * invoice, and usage records the period once.
 */
class UsageChargeRetryTest extends IntegrationTest {

    @Autowired
    UsageChargeOutbox outbox;

    @Autowired
    UsageChargeSender sender;

    @Autowired
    TransactionTemplate transaction;

    private Api owner;
    private Api.Account account;
    private String customer;

    @BeforeEach
    void aProSubscriptionBoughtAtTheSandbox() {
        owner = api();
        Api browser = api();
        account = owner.signup();
        Api.Response paid = browser.payCheckout(owner.startCheckout("pro"), "succeeded");
        assertThat(paid.status()).as(paid.toString()).isEqualTo(303);
        browser.follow(paid);
        Awaitility.await("the first invoice is paid")
                .atMost(Duration.ofSeconds(30))
                .until(() -> invoices().size() == 1);
        customer = owner.get("/api/v1/billing/subscription")
                .json()
                .get("subscription")
                .get("provider_customer_id")
                .asString();
    }

    @Test
    void aChargeQueuedBeforeACrashIsSentByTheRetryOnceAndItsPeriodRecordedOnce() {
        Instant end = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Instant start = end.minus(Duration.ofDays(30));
        UUID id = UUID.randomUUID();
        Queued queued = new Queued(
                id,
                account.organizationId(),
                "overage-final:" + UUID.randomUUID() + ":" + start.getEpochSecond() + "-" + end.getEpochSecond(),
                new ProviderCustomerId(customer),
                null,
                start,
                end,
                new UsageCharge(150L << 30, 5, 200, 1000, "Storage overage: 5 × 10 GiB above 100 GiB"));
        // committed without its send after commit: the instance died right after the commit
        transaction.executeWithoutResult(
                status -> assertThat(outbox.queue(queued)).isTrue());
        assertThat(periods()).isEmpty();
        assertThat(invoices()).hasSize(1);

        sendWhatIsDue();

        List<JsonNode> periods = periods();
        assertThat(periods).hasSize(1);
        String invoice = periods.get(0).get("provider_invoice_id").asString();
        assertThat(invoice).startsWith("in_");
        assertThat(periods.get(0).get("overage_units").asLong()).isEqualTo(5);
        assertThat(periods.get(0).get("overage_cents").asLong()).isEqualTo(1000);
        assertThat(count("select count(*) from usage_charge_outbox where id = ? and sent_at is not null", id))
                .isEqualTo(1);

        // the instance died after the provider's answer, before recording it: both are rolled back together
        transaction.executeWithoutResult(status -> {
            jdbc.sql("update usage_charge_outbox set sent_at = null, billed_invoice_id = null where id = ?")
                    .param(id)
                    .update();
            jdbc.sql("delete from usage_billed_periods where provider_invoice_id = ?")
                    .param(invoice)
                    .update();
        });
        sendWhatIsDue();

        assertThat(periods()).hasSize(1);
        assertThat(periods().get(0).get("provider_invoice_id").asString()).isEqualTo(invoice);
        Awaitility.await("the final invoice is recorded")
                .atMost(Duration.ofSeconds(30))
                .until(() -> invoices().stream()
                        .anyMatch(i -> i.get("provider_invoice_id").asString().equals(invoice)));
        assertThat(invoices()).as("the same key makes the same invoice").hasSize(2);
        JsonNode last = invoices().stream()
                .filter(i -> i.get("provider_invoice_id").asString().equals(invoice))
                .findFirst()
                .orElseThrow();
        assertThat(last.get("amount_due_cents").asLong()).isEqualTo(1000);

        sendWhatIsDue();
        assertThat(periods()).as("a sent charge is never sent again").hasSize(1);
    }

    /** What the periodic retry does, for the charges queued longer ago than its interval. */
    private void sendWhatIsDue() {
        jdbc.sql("update usage_charge_outbox set created_at = now() - interval '1 hour' where sent_at is null")
                .update();
        sender.retryUnsent();
    }

    private List<JsonNode> periods() {
        return elements(owner.get("/api/v1/usage/periods").json().get("periods"));
    }

    private List<JsonNode> invoices() {
        return elements(owner.get("/api/v1/billing/invoices").json().get("invoices"));
    }

    private static List<JsonNode> elements(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false).toList();
    }
}
