package com.kvportal.usage;

import static com.kvportal.support.StorageSamples.report;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import com.kvportal.usage.reconciliation.DailyReconciliation;
import com.stripe.model.InvoiceItem;
import com.stripe.param.InvoiceItemCreateParams;
import com.stripe.param.InvoiceItemListParams;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The operator's reconciliation of billed periods with the provider's invoice items, through the real actuator
 * endpoint and stripe-java against the sandbox. The sandbox's drafts wait here (its poll runs hourly), so that an
 * item can be deleted from a renewal draft by hand, as Stripe allows during a draft's hour.
 */
@TestPropertySource(properties = {"kvportal.sandbox.poll-interval=1h", "kvportal.reconciliation.initial-delay=1h"})
class ReconciliationTest extends IntegrationTest {

    static final long GIB = 1L << 30;

    @Autowired
    DailyReconciliation daily;

    JsonNode reconcile(Instant from, Instant to) {
        Api.Response response = metrics().get("/actuator/reconciliation?from=" + from + "&to=" + to);
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return response.json();
    }

    double differencesGauge() {
        Api.Response scrape = metrics().get("/actuator/prometheus");
        assertThat(scrape.status()).as(scrape.toString()).isEqualTo(200);
        Matcher matcher = Pattern.compile(
                        "^kvportal_reconciliation_differences(?:\\{[^}]*})? ([0-9.eE+-]+)$", Pattern.MULTILINE)
                .matcher(scrape.body());
        assertThat(matcher.find()).as(scrape.body()).isTrue();
        return Double.parseDouble(matcher.group(1));
    }

    @Test
    void shouldReportEveryDifferenceBetweenTheBilledPeriodsAndTheProvidersItems() throws Exception {
        ProOrganization pro = ProOrganization.buy(api(), api());
        Api owner = pro.owner();
        Api.Account account = pro.account();
        String customer = pro.customer();
        Instant periodStart = pro.periodStart();
        Instant from = periodStart;
        Instant to = periodStart.plusSeconds(1);
        // 150 GiB: 5 units, 1000 cents on the renewal
        report(baseUrl(), account.projectId(), 150 * GIB, periodStart);
        assertThat(sandbox()
                        .post("/sandbox/subscriptions/" + pro.providerSubscription() + "/advance")
                        .status())
                .isEqualTo(200);
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() ->
                        owner.get("/api/v1/usage/periods").json().get("periods").size() == 1);
        String renewal = owner.get("/api/v1/usage/periods")
                .json()
                .get("periods")
                .get(0)
                .get("provider_invoice_id")
                .asString();

        JsonNode clean = reconcile(from, to);
        assertThat(clean.get("billed_periods").asInt()).isEqualTo(1);
        assertThat(clean.get("provider_items").asInt()).isEqualTo(1);
        assertThat(clean.get("differences").size()).isZero();
        assertThat(differencesGauge()).isZero();

        // the item deleted at the provider by hand, from the renewal while it is still a draft
        List<InvoiceItem> items = stripeClient()
                .v1()
                .invoiceItems()
                .list(InvoiceItemListParams.builder().setCustomer(customer).build())
                .getData();
        assertThat(items).singleElement().satisfies(item -> assertThat(item.getInvoice())
                .isEqualTo(renewal));
        InvoiceItem deleted =
                stripeClient().v1().invoiceItems().delete(items.get(0).getId());
        assertThat(deleted.getDeleted()).isTrue();
        assertThat(stripeClient().v1().invoices().retrieve(renewal).getAmountDue())
                .isEqualTo(2000L);

        JsonNode missing = reconcile(from, to);
        assertThat(missing.get("differences").size()).isEqualTo(1);
        JsonNode difference = missing.get("differences").get(0);
        assertThat(difference.get("kind").asString()).isEqualTo("missing_at_provider");
        assertThat(difference.get("organization_id").asString())
                .isEqualTo(account.organizationId().toString());
        assertThat(difference.get("period_start").asString()).isEqualTo(periodStart.toString());
        assertThat(difference.get("provider_invoice_id").asString()).isEqualTo(renewal);
        assertThat(difference.get("recorded_units").asLong()).isEqualTo(5);
        assertThat(difference.get("recorded_cents").asLong()).isEqualTo(1000);
        assertThat(difference.get("provider_quantity").asLong()).isZero();
        assertThat(differencesGauge()).isEqualTo(1);

        // a wrong quantity, then a second item for the same period: each is one difference
        createItem(customer, renewal, account.organizationId().toString(), periodStart, 4);
        JsonNode wrong = reconcile(from, to).get("differences");
        assertThat(wrong.size()).isEqualTo(1);
        assertThat(wrong.get(0).get("kind").asString()).isEqualTo("wrong_amount");
        assertThat(wrong.get(0).get("provider_quantity").asLong()).isEqualTo(4);
        assertThat(wrong.get(0).get("provider_amount_cents").asLong()).isEqualTo(800);
        createItem(customer, renewal, account.organizationId().toString(), periodStart, 5);
        JsonNode twice = reconcile(from, to).get("differences");
        assertThat(twice.size()).isEqualTo(1);
        assertThat(twice.get(0).get("kind").asString()).isEqualTo("extra_at_provider");
        assertThat(twice.get(0).get("provider_quantity").asLong()).isEqualTo(4);
        assertThat(differencesGauge()).isEqualTo(1);

        // outside the range, nothing of it is compared
        JsonNode before = reconcile(from.minusSeconds(60), from);
        assertThat(before.get("billed_periods").asInt()).isZero();
        assertThat(before.get("provider_items").asInt()).isZero();
        assertThat(before.get("differences").size()).isZero();
    }

    @Test
    void shouldReportAnInvoiceWhoseRecordedAmountsDifferFromTheProvidersInvoice() throws Exception {
        ProOrganization pro = ProOrganization.buy(api(), api());
        Api owner = pro.owner();
        Instant from = pro.periodStart();
        Instant to = from.plusSeconds(1);
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> owner.get("/api/v1/billing/invoices")
                        .json()
                        .get("invoices")
                        .findValuesAsString("status")
                        .contains("paid"));

        JsonNode clean = reconcile(from, to);
        assertThat(clean.get("invoice_differences").size()).isZero();

        jdbc.sql("update invoices set tax_cents = tax_cents + 7 where organization_id = ?")
                .param(pro.account().organizationId())
                .update();
        JsonNode tampered = reconcile(from, to).get("invoice_differences");
        assertThat(tampered.size()).isEqualTo(1);
        JsonNode recorded = tampered.get(0).get("recorded");
        JsonNode provider = tampered.get(0).get("provider");
        assertThat(recorded.get("organization_id").asString())
                .isEqualTo(pro.account().organizationId().toString());
        assertThat(recorded.get("tax_cents").asLong()).isEqualTo(7);
        assertThat(provider.get("provider_invoice_id").asString())
                .isEqualTo(recorded.get("provider_invoice_id").asString());
        assertThat(provider.get("tax_cents").asLong()).isZero();
        assertThat(provider.get("subtotal_cents").asLong()).isEqualTo(2000);
        assertThat(provider.get("amount_due_cents").asLong()).isEqualTo(2000);
        assertThat(differencesGauge()).isEqualTo(1);

        jdbc.sql("update invoices set tax_cents = tax_cents - 7 where organization_id = ?")
                .param(pro.account().organizationId())
                .update();
        assertThat(reconcile(from, to).get("invoice_differences").size()).isZero();
        assertThat(differencesGauge()).isZero();
    }

    @Test
    void shouldRefuseARangeThatIsNoRange() {
        Instant now = Instant.now();
        String range = "/actuator/reconciliation?from=" + now.minusSeconds(60) + "&to=" + now;
        assertThat(api().get(range).status()).isEqualTo(404);
        assertThat(Api.withKey(baseUrl(), "wrong-token").get(range).status()).isEqualTo(404);
        assertThat(metrics().get(range).status()).isEqualTo(200);
        for (String query : List.of(
                "",
                "?from=" + now,
                "?from=yesterday&to=" + now,
                "?from=" + now + "&to=" + now,
                "?from=" + now + "&to=" + now.minusSeconds(1))) {
            Api.Response response = metrics().get("/actuator/reconciliation" + query);
            assertThat(response.status()).as(query + " " + response).isEqualTo(400);
        }
    }

    @Test
    void shouldRunTheDailyReconciliationOnceADay() {
        assertThat(daily.runIfDue()).isPresent();
        assertThat(daily.runIfDue()).isEmpty();
        assertThat(count("select count(*) from usage_reconciliation_runs where finished_at is not null"))
                .isEqualTo(1);
    }

    void createItem(String customer, String invoice, String organization, Instant periodStart, long quantity)
            throws Exception {
        stripeClient()
                .v1()
                .invoiceItems()
                .create(InvoiceItemCreateParams.builder()
                        .setCustomer(customer)
                        .setInvoice(invoice)
                        .setQuantity(quantity)
                        .setUnitAmountDecimal(BigDecimal.valueOf(200))
                        .setCurrency("usd")
                        .putAllMetadata(Map.of(
                                "organization_id",
                                organization,
                                "period_start",
                                periodStart.toString(),
                                "kind",
                                "storage_overage"))
                        .build());
    }
}
