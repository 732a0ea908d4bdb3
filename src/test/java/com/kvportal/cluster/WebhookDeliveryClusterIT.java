package com.kvportal.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.kvportal.support.Api;
import com.kvportal.support.ServiceGroup;
import com.kvportal.support.ServiceProcess;
import com.kvportal.support.TestDatabase;
import com.kvportal.support.WebhookReceiver;
import com.kvportal.support.WebhookReceiver.Mode;
import com.kvportal.support.WebhookReceiver.Received;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Deliveries across real processes: an instance killed with {@code kill -9} in the middle of its
 * attempts loses none of them (another instance attempts them once their lease has run out), and two instances
 * delivering from one outbox never attempt a delivery twice at once.
 */
class WebhookDeliveryClusterIT {

    /** A 2 s timeout (a lease of 11 s), retries after 1 s. */
    private static final String[] FAST = {
        "--kvportal.webhooks.allow-private-targets=true",
        "--kvportal.webhooks.timeout=2s",
        "--kvportal.webhooks.retry-schedule=1s,1s,1s,1s,1s,1s,1s",
        "--kvportal.webhooks.poll-interval=200ms",
        // more tests of one endpoint than a customer may ask for, and all at once: this is about the outbox
        "--kvportal.webhooks.manual-attempts-per-minute=1000",
        "--kvportal.webhooks.in-flight-per-organization=16"
    };

    private static final Duration WAIT = Duration.ofSeconds(90);

    @Test
    void shouldLoseNoDeliveryWhenAnInstanceIsKilledMidAttempt() throws Exception {
        String database = TestDatabase.freshDatabaseUrl();
        try (WebhookReceiver receiver = new WebhookReceiver().answer(Mode.HANG)) {
            String email;
            String secret;
            String endpointId;
            List<String> events = new ArrayList<>();
            try (ServiceProcess first = ServiceProcess.launch("webhooks-killed", database, FAST)) {
                first.awaitReady();
                Api session = new Api(first.baseUrl());
                email = session.signup().email();
                Api.WebhookEndpoint created = session.createWebhookEndpoint(Map.of("url", receiver.url()));
                secret = created.secret();
                endpointId = created.id();
                for (int i = 0; i < 40; i++) {
                    events.add(session.post("/api/v1/webhook-endpoints/" + endpointId + "/test")
                            .json()
                            .get("event_id")
                            .asString());
                }
                // attempts in flight: the receiver holds them
                await().atMost(WAIT).until(() -> receiver.received().size() >= 5);

                first.kill9();
            }
            receiver.answer(Mode.OK);

            try (ServiceProcess second = ServiceProcess.launch("webhooks-after-kill", database, FAST)) {
                second.awaitReady();
                await().atMost(WAIT).until(() -> delivered(receiver).containsAll(events));
                for (Received delivery : receiver.received()) {
                    delivery.verify(secret);
                }
                Api again = Api.loggedIn(second.baseUrl(), email);
                await().atMost(WAIT).untilAsserted(() -> assertThat(
                                again.get("/api/v1/webhook-endpoints/" + endpointId + "/deliveries?limit=200")
                                        .json()
                                        .get("deliveries")
                                        .valueStream()
                                        .map(d -> d.get("status").asString()))
                        .hasSize(40)
                        .containsOnly("delivered"));
            }
        }
    }

    @Test
    void shouldAttemptEachDeliveryOnceWhenTwoInstancesDeliver() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver();
                ServiceGroup both = ServiceGroup.launch(
                        TestDatabase.freshDatabaseUrl(), List.of("webhooks-first", "webhooks-second"), FAST)) {
            Api onFirst = new Api(both.get(0).baseUrl());
            String email = onFirst.signup().email();
            String endpointId =
                    onFirst.createWebhookEndpoint(Map.of("url", receiver.url())).id();
            // events written on both instances: each instance is prompted to deliver after its own commits
            Api onSecond = Api.loggedIn(both.get(1).baseUrl(), email);
            Set<String> events = new HashSet<>();
            for (int i = 0; i < 100; i++) {
                Api on = i % 2 == 0 ? onFirst : onSecond;
                events.add(on.post("/api/v1/webhook-endpoints/" + endpointId + "/test")
                        .json()
                        .get("event_id")
                        .asString());
            }

            await().atMost(WAIT).until(() -> delivered(receiver).containsAll(events));
            // a few more polls of both instances: nothing is attempted again
            Thread.sleep(2000);
            List<String> ids = receiver.received().stream().map(Received::id).toList();
            assertThat(ids).hasSize(100).doesNotHaveDuplicates();
        }
    }

    private static Set<String> delivered(WebhookReceiver receiver) {
        return receiver.received().stream().map(Received::id).collect(Collectors.toSet());
    }
}
