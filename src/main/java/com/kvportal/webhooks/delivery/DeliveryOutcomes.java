package com.kvportal.webhooks.delivery;

import com.kvportal.account.Accounts;
import com.kvportal.account.Organization;
import com.kvportal.account.OrganizationContacts;
import com.kvportal.common.AppBaseUrl;
import com.kvportal.mail.Mail;
import com.kvportal.mail.Mailer;
import com.kvportal.webhooks.StoredEndpoints;
import com.kvportal.webhooks.WebhookEndpointEvent;
import com.kvportal.webhooks.WebhookProperties;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import lombok.RequiredArgsConstructor;
import lombok.extern.slf4j.Slf4j;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

/**
 * What an attempt's outcome changes, in one transaction: the delivery's status and schedule (2xx: delivered; else the
 * next wait of {@code retry-schedule}, or failed after its last), and the endpoint's standing: one that has failed
 * everything for {@code disable-after} is disabled, its owners mailed, the audit log told.
 */
@Slf4j
@Component
@RequiredArgsConstructor
public class DeliveryOutcomes {

    private final StoredDeliveries deliveries;
    private final StoredEndpoints endpoints;
    private final WebhookProperties settings;
    private final Accounts accounts;
    private final OrganizationContacts contacts;
    private final Mailer mailer;
    private final AppBaseUrl baseUrl;
    private final ApplicationEventPublisher events;
    private final Clock clock;

    public void record(StoredDeliveries.Claimed delivery, WebhookClient.Outcome outcome) {
        // the endpoint's row first, then the delivery's: the order a deletion of the endpoint takes them in (it locks
        // the endpoint, then its deliveries go with it), so that the two wait for each other instead of deadlocking
        if (!endpoints.lockForOutcome(delivery.endpointId())) {
            log.info(
                    "Webhooks: endpoint {} was deleted during attempt {} of {}",
                    delivery.endpointId(),
                    delivery.attempt(),
                    delivery.eventId());
            return;
        }
        Instant now = clock.instant();
        boolean recorded;
        if (outcome.delivered()) {
            recorded = deliveries.recordAttempt(
                    delivery.id(),
                    delivery.attempt(),
                    "delivered",
                    outcome.status(),
                    outcome.durationMs(),
                    null,
                    null,
                    false);
        } else if (delivery.manual()) {
            // a retry asked for: one more attempt; its failure leaves the status and the schedule as they were
            recorded = deliveries.recordAttempt(
                    delivery.id(),
                    delivery.attempt(),
                    null,
                    outcome.status(),
                    outcome.durationMs(),
                    outcome.error(),
                    null,
                    true);
        } else {
            Instant next = DeliveryWorker.nextAttempt(settings.retrySchedule(), delivery.scheduledAttempts(), now);
            recorded = deliveries.recordAttempt(
                    delivery.id(),
                    delivery.attempt(),
                    next == null ? "failed" : "pending",
                    outcome.status(),
                    outcome.durationMs(),
                    outcome.error(),
                    next,
                    false);
        }
        if (!recorded) {
            log.warn(
                    "Webhooks: attempt {} of {} ended after its lease; it was claimed again",
                    delivery.attempt(),
                    delivery.eventId());
            return;
        }
        if (outcome.delivered()) {
            endpoints.delivered(delivery.endpointId());
        } else {
            Instant failingSince = endpoints.failed(delivery.endpointId());
            if (!failingSince.isAfter(now.minus(settings.disableAfter()))) {
                endpoints
                        .disableIfFailingSince(delivery.endpointId(), now.minus(settings.disableAfter()))
                        .ifPresent(disabled -> disabled(delivery, disabled));
            }
        }
    }

    private void disabled(StoredDeliveries.Claimed delivery, StoredEndpoints.Disabled disabled) {
        log.warn(
                "Webhooks: endpoint {} disabled after failing everything for {}",
                delivery.endpointId(),
                settings.disableAfter());
        events.publishEvent(
                new WebhookEndpointEvent.Disabled(disabled.organizationId(), delivery.endpointId(), disabled.url()));
        String name = accounts.organization(disabled.organizationId())
                .map(Organization::name)
                .orElse("Your organization");
        for (String owner : contacts.owners(disabled.organizationId())) {
            mailer.send(new Mail(
                    owner,
                    "A webhook endpoint was disabled",
                    "webhook-endpoint-disabled",
                    Map.of(
                            "organization", name,
                            "url", disabled.url(),
                            "days", settings.disableAfter().toDays(),
                            "link", baseUrl.resolve("/dashboard/webhooks"))));
        }
    }
}
