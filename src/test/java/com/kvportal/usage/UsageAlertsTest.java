package com.kvportal.usage;

import static com.kvportal.support.StorageSamples.report;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.kvportal.account.OrganizationContacts;
import com.kvportal.support.Api;
import com.kvportal.support.Inbox;
import com.kvportal.support.SignedInTest;
import com.kvportal.usage.UsageEvent.UsageAlertRaised;
import com.kvportal.usage.alerts.UsageAlerts;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * Usage alerts on the free plan (1 GiB): each threshold a sample passes, once, with its audit line and a
 * mail to the owners and billing members; re-armed 5 % of the allowance below; none for a removed threshold; writes
 * refused and allowed again. Each test evaluates the organization itself after a sample (as every instance does each
 * second), so that what was not raised is known not to be coming.
 */
class UsageAlertsTest extends SignedInTest {

    static final long GIB = 1L << 30;

    @Autowired
    UsageAlerts alerts;

    @Autowired
    OrganizationContacts contacts;

    void store(long bytes) {
        report(baseUrl(), account.projectId(), bytes, Instant.now());
        alerts.evaluate(account.organizationId());
    }

    /** The organization's audit lines of the alert type, oldest first: their details. */
    List<JsonNode> lines(String action) {
        List<JsonNode> lines = new ArrayList<>();
        session.get("/api/v1/audit-events?limit=200").json().get("events").forEach(event -> {
            if (event.get("action").asString().equals(action)) {
                lines.add(0, event.get("details"));
            }
        });
        return lines;
    }

    List<Integer> crossed() {
        return lines(UsageAlertRaised.THRESHOLD_CROSSED).stream()
                .map(d -> d.get("threshold_percent").asInt())
                .toList();
    }

    void putLimits(List<Integer> thresholds, @Nullable Long storageCap) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("alert_thresholds_percent", thresholds);
        body.put("storage_cap_bytes", storageCap);
        Api.Response response = session.put("/api/v1/usage/limits", body);
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
    }

    @Test
    void shouldAlertOnceForEachThresholdOneSamplePassesWithTheAuditLineAndTheMail() {
        long used = GIB / 100 * 95;
        store(used);

        List<JsonNode> lines = lines(UsageAlertRaised.THRESHOLD_CROSSED);
        assertThat(lines)
                .containsExactly(
                        Api.JSON.readTree("{\"threshold_percent\":75,\"used_bytes\":" + used + "}"),
                        Api.JSON.readTree("{\"threshold_percent\":90,\"used_bytes\":" + used + "}"));

        Inbox inbox = new Inbox(baseUrl(), account.email());
        JsonNode at90 = inbox.awaitMessage("storage reached 90 % of the allowance");
        JsonNode at75 = inbox.awaitMessage("storage reached 75 % of the allowance");
        assertThat(at90.get("to").asString()).isEqualTo(account.email());
        assertThat(at90.get("text").asString())
                .contains("stores 0.95 GiB, which reached your alert threshold of 90 % of the 1 GiB allowance of the"
                        + " Free plan.")
                .contains("When storage reaches the allowance, writes are refused")
                .contains(baseUrl() + "/dashboard/billing#limits");
        assertThat(at90.get("html").asString()).contains("href=\"" + baseUrl() + "/dashboard/billing#limits\"");
        assertThat(at75.get("text").asString()).contains("alert threshold of 75 %");

        // the same storage again, and another evaluation: nothing new
        store(used);
        alerts.evaluate(account.organizationId());
        assertThat(crossed()).containsExactly(75, 90);
        assertThat(inbox.count("storage reached")).isEqualTo(2);
    }

    @Test
    void shouldReArmAThresholdOnlyOnceStorageFallsFivePercentOfTheAllowanceBelowIt() {
        long at75 = GIB / 4 * 3;
        long at70 = (GIB * 70 + 99) / 100; // the fewest bytes that are 70 % of the allowance
        store(at75);
        assertThat(crossed()).containsExactly(75);

        store(at70);
        store(at75);
        assertThat(crossed()).as("70 %% is not below 75 %% by 5 %%").containsExactly(75);

        store(at70 - 1);
        store(at75 - 1);
        assertThat(crossed()).containsExactly(75);
        store(at75);
        assertThat(crossed()).containsExactly(75, 75);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> new Inbox(baseUrl(), account.email()).count("storage reached 75 %") == 2);
    }

    @Test
    void shouldSendNoAlertForARemovedThreshold() {
        putLimits(List.of(90), null);
        store(GIB / 100 * 80);
        assertThat(crossed()).isEmpty();

        putLimits(List.of(), null);
        store(GIB / 100 * 99);
        assertThat(crossed()).isEmpty();
        assertThat(lines(UsageAlertRaised.WRITES_REFUSED)).isEmpty();
    }

    @Test
    void shouldAnnounceWritesRefusedAtTheAllowanceAndAllowedAgainBelowIt() {
        putLimits(List.of(), null);
        store(GIB);
        assertThat(lines(UsageAlertRaised.WRITES_REFUSED))
                .containsExactly(Api.JSON.readTree("{\"reason\":\"allowance_reached\",\"used_bytes\":" + GIB + "}"));
        Inbox inbox = new Inbox(baseUrl(), account.email());
        JsonNode refused = inbox.awaitMessage("writes are refused (allowance_reached)");
        assertThat(refused.get("text").asString())
                .contains("reached the 1 GiB allowance of the Free plan")
                .contains("Upgrade to a plan with more storage, or delete data, to write again.")
                .contains(baseUrl() + "/dashboard/billing#limits");

        store(GIB + 1);
        assertThat(lines(UsageAlertRaised.WRITES_REFUSED)).hasSize(1);

        store(GIB / 2);
        assertThat(lines(UsageAlertRaised.WRITES_ALLOWED))
                .containsExactly(Api.JSON.readTree("{\"used_bytes\":" + GIB / 2 + "}"));
        assertThat(inbox.awaitMessage("writes are allowed again").get("text").asString())
                .contains("stores 0.5 GiB and writes are accepted again");
        assertThat(inbox.count("writes are refused")).isEqualTo(1);
    }

    @Test
    void shouldAnnounceTheStorageCapWhenALimitChangeMakesItRefuseAndWhenItIsLifted() {
        store(500);
        putLimits(List.of(75, 90, 100), 500L);
        alerts.evaluate(account.organizationId());
        assertThat(lines(UsageAlertRaised.WRITES_REFUSED))
                .containsExactly(Api.JSON.readTree("{\"reason\":\"storage_cap\",\"used_bytes\":500}"));
        assertThat(new Inbox(baseUrl(), account.email())
                        .awaitMessage("writes are refused (storage_cap)")
                        .get("text")
                        .asString())
                .contains("its storage (500 bytes) reached your storage cap of 500 bytes.")
                .contains("Raise or remove the storage cap, or delete data, to write again.");

        putLimits(List.of(75, 90, 100), null);
        alerts.evaluate(account.organizationId());
        assertThat(lines(UsageAlertRaised.WRITES_ALLOWED)).hasSize(1);
    }

    @Test
    void shouldRaiseAlertsWithinAMinuteOfTheSampleWithoutBeingAsked() {
        report(baseUrl(), account.projectId(), GIB, Instant.now());
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> crossed().size() == 3);
        assertThat(crossed()).containsExactly(75, 90, 100);
        assertThat(lines(UsageAlertRaised.WRITES_REFUSED)).hasSize(1);
    }

    @Test
    void shouldMailTheOwnersOnlyNotOtherCustomers() {
        Api.Account stranger = api().signup();
        assertThat(contacts.billing(account.organizationId())).containsExactly(account.email());

        store(GIB / 100 * 80);

        new Inbox(baseUrl(), account.email()).awaitMessage("storage reached 75 %");
        assertThat(new Inbox(baseUrl(), stranger.email()).count("storage reached"))
                .isZero();
    }
}
