package com.kvportal.cluster;

import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.kvportal.support.Api;
import com.kvportal.support.ServiceGroup;
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
        try (WebhookReceiver hanging = new WebhookReceiver().answer(Mode.HANG);
                WebhookReceiver healthy = new WebhookReceiver();
                ServiceGroup both = launchTwo("fair")) {
            // organization A: 10 endpoints that never answer (each attempt takes the whole 10 s timeout), and
            // 300 deliveries queued for them, written on both instances
            Api slowOnFirst = new Api(both.get(0).baseUrl());
            String slowEmail = slowOnFirst.signup().email();
            Api slowOnSecond = Api.loggedIn(both.get(1).baseUrl(), slowEmail);
            for (int i = 0; i < 10; i++) {
                createEndpoint(slowOnFirst, hanging.url() + "/endpoint-" + i);
            }
            for (int i = 0; i < 30; i++) {
                (i % 2 == 0 ? slowOnFirst : slowOnSecond).createKey("burst-" + i); // api_key.created to all 10
            }
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> hanging.received().size() >= 4);

            // organization B, one endpoint that answers at once: each event, whichever instance wrote it, is
            // attempted within 10 s while A's deliveries are still queued and its endpoints still hang
            Api fast = new Api(both.get(1).baseUrl());
            String fastEmail = fast.signup().email();
            Api fastOnFirst = Api.loggedIn(both.get(0).baseUrl(), fastEmail);
            String endpoint = createEndpoint(fast, healthy.url());
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
        try (WebhookReceiver receiver = new WebhookReceiver();
                ServiceGroup both = launchTwo("manual")) {
            Api onFirst = new Api(both.get(0).baseUrl());
            String email = onFirst.signup().email();
            Api onSecond = Api.loggedIn(both.get(1).baseUrl(), email);
            String endpoint = createEndpoint(onFirst, receiver.url());

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

    /** Creates an endpoint for {@code url} and answers its id. */
    private static String createEndpoint(Api on, String url) {
        return on.createWebhookEndpoint(Map.of("url", url)).id();
    }

    /** Two instances with {@link #SETTINGS} on a fresh database of their own. */
    private static ServiceGroup launchTwo(String name) {
        return ServiceGroup.launch(
                TestDatabase.freshDatabaseUrl(), List.of(name + "-first", name + "-second"), SETTINGS);
    }

    private static Optional<Received> find(WebhookReceiver receiver, String eventId) {
        return receiver.received().stream().filter(r -> eventId.equals(r.id())).findFirst();
    }
}
