package com.kvportal.cluster;

import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.kvportal.support.Api;
import com.kvportal.support.ServiceProcess;
import com.kvportal.support.TestDatabase;
import com.kvportal.support.WebhookReceiver;
import com.kvportal.support.WebhookReceiver.Mode;
import com.kvportal.support.WebhookReceiver.Received;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Bounded work per tenant, on two real instances sharing one database, with the default delivery settings (a 10 s
 * timeout, 16 workers per instance): one organization's hanging endpoints never hold back another organization's
 * deliveries, and tests and retries of an endpoint are limited across the instances.
 */
class WebhookFairDeliveryClusterIT {

    /** The defaults, but for a receiver on this machine. */
    private static final String[] SETTINGS = {"--kvportal.webhooks.allow-private-targets=true"};

    private static final String ENDPOINTS = "/api/v1/webhook-endpoints";

    @Test
    void shouldAttemptAnotherOrganizationsDeliveriesWithinTenSecondsWhileOneOrganizationsEndpointsHang()
            throws Exception {
        String database = TestDatabase.freshDatabaseUrl();
        try (WebhookReceiver hanging = new WebhookReceiver().answer(Mode.HANG);
                WebhookReceiver healthy = new WebhookReceiver();
                ServiceProcess first = ServiceProcess.launch("fair-first", database, SETTINGS);
                ServiceProcess second = ServiceProcess.launch("fair-second", database, SETTINGS)) {
            first.awaitReady();
            second.awaitReady();

            // organization A: 10 endpoints that never answer (each attempt takes the whole 10 s timeout), and
            // 300 deliveries queued for them, written on both instances
            Api slowOnFirst = new Api(first.baseUrl());
            String slowEmail = slowOnFirst.signup().email();
            slowOnFirst.verifyEmail();
            Api slowOnSecond = new Api(second.baseUrl());
            slowOnSecond.post("/api/v1/auth/login", Map.of("email", slowEmail, "password", Api.PASSWORD));
            for (int i = 0; i < 10; i++) {
                Api.Response created = slowOnFirst.post(ENDPOINTS, Map.of("url", hanging.url() + "/endpoint-" + i));
                assertThat(created.status()).as(created.toString()).isEqualTo(201);
            }
            for (int i = 0; i < 30; i++) {
                (i % 2 == 0 ? slowOnFirst : slowOnSecond).createKey("burst-" + i); // api_key.created to all 10
            }
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> hanging.received().size() >= 4);

            // organization B, one endpoint that answers at once: each event, whichever instance wrote it, is
            // attempted within 10 s while A's deliveries are still queued and its endpoints still hang
            Api fast = new Api(second.baseUrl());
            String fastEmail = fast.signup().email();
            fast.verifyEmail();
            Api fastOnFirst = new Api(first.baseUrl());
            fastOnFirst.post("/api/v1/auth/login", Map.of("email", fastEmail, "password", Api.PASSWORD));
            String endpoint = fast.post(ENDPOINTS, Map.of("url", healthy.url()))
                    .json()
                    .get("id")
                    .asString();
            for (Api on : List.of(fast, fastOnFirst, fast)) {
                long before = System.currentTimeMillis();
                Api.Response queued = on.post(ENDPOINTS + "/" + endpoint + "/test");
                assertThat(queued.status()).as(queued.toString()).isEqualTo(202);
                String eventId = queued.json().get("event_id").asString();

                Received attempt = await().atMost(Duration.ofSeconds(10))
                        .until(() -> find(healthy, eventId), Optional::isPresent)
                        .orElseThrow();
                assertThat(attempt.atMillis() - before).isLessThan(10_000);
            }
            // A's endpoints were hanging all along, with most of its deliveries still waiting for a first attempt
            assertThat(hanging.received()).hasSizeLessThan(300);
        }
    }

    @Test
    void shouldLimitTestsAndRetriesOfAnEndpointAcrossInstances() {
        String database = TestDatabase.freshDatabaseUrl();
        try (WebhookReceiver receiver = new WebhookReceiver();
                ServiceProcess first = ServiceProcess.launch("manual-first", database, SETTINGS);
                ServiceProcess second = ServiceProcess.launch("manual-second", database, SETTINGS)) {
            first.awaitReady();
            second.awaitReady();
            Api onFirst = new Api(first.baseUrl());
            String email = onFirst.signup().email();
            onFirst.verifyEmail();
            Api onSecond = new Api(second.baseUrl());
            onSecond.post("/api/v1/auth/login", Map.of("email", email, "password", Api.PASSWORD));
            String endpoint = onFirst.post(ENDPOINTS, Map.of("url", receiver.url()))
                    .json()
                    .get("id")
                    .asString();

            List<String> deliveries = new ArrayList<>();
            for (int i = 0; i < 9; i++) {
                Api.Response queued = (i % 2 == 0 ? onFirst : onSecond).post(ENDPOINTS + "/" + endpoint + "/test");
                assertThat(queued.status()).as(queued.toString()).isEqualTo(202);
                deliveries.add(queued.json().get("delivery_id").asString());
            }
            Api.Response retried =
                    onSecond.post(ENDPOINTS + "/" + endpoint + "/deliveries/" + deliveries.get(0) + "/retry");
            assertThat(retried.status()).as(retried.toString()).isEqualTo(202);

            for (Api on : List.of(onFirst, onSecond)) {
                Api.Response refused = on.post(ENDPOINTS + "/" + endpoint + "/test");
                assertProblem(refused, 429, "too_many_requests");
                assertThat(Integer.parseInt(refused.header("Retry-After"))).isBetween(1, 60);
                assertProblem(
                        on.post(ENDPOINTS + "/" + endpoint + "/deliveries/" + deliveries.get(1) + "/retry"),
                        429,
                        "too_many_requests");
            }
            assertThat(onFirst.get(ENDPOINTS + "/" + endpoint + "/deliveries?limit=100")
                            .json()
                            .get("deliveries"))
                    .hasSize(9);
        }
    }

    private static Optional<Received> find(WebhookReceiver receiver, String eventId) {
        return receiver.received().stream().filter(r -> eventId.equals(r.id())).findFirst();
    }
}
