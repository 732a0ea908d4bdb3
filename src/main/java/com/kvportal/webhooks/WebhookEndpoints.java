package com.kvportal.webhooks;

import com.kvportal.common.limits.WindowLimits;
import com.kvportal.common.web.FieldErrors;
import com.kvportal.common.web.PageCursor;
import com.kvportal.security.Caller;
import com.kvportal.webhooks.WebhookProblem.DeliveryNotFound;
import com.kvportal.webhooks.WebhookProblem.EndpointLimitReached;
import com.kvportal.webhooks.WebhookProblem.EndpointNotFound;
import com.kvportal.webhooks.delivery.Delivery;
import com.kvportal.webhooks.delivery.StoredDeliveries;
import com.kvportal.webhooks.delivery.TargetPolicy;
import io.swagger.v3.oas.annotations.media.Schema;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** The current organization's webhook endpoints: their lifecycle, their secrets and their delivery logs. */
@Service
@RequiredArgsConstructor
class WebhookEndpoints {

    static final int MAX_ENDPOINTS_PER_ORGANIZATION = 10;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final StoredEndpoints endpoints;
    private final StoredDeliveries deliveries;
    private final TargetPolicy policy;
    private final OutgoingEvents outgoing;
    private final WebhookProperties settings;
    private final WindowLimits limits;
    private final ApplicationEventPublisher events;

    /** A new endpoint and its secret, which exists in this answer only. */
    record Created(WebhookEndpoint endpoint, String secret) {}

    @Schema(name = "WebhookDeliveryPage")
    record Page(
            List<Delivery> deliveries,
            @Schema(nullable = true, description = "The cursor of the next page; null on the last page.") @Nullable
                    String nextCursor) {}

    @Transactional
    public Created create(Caller caller, EndpointRequest.Create request) {
        FieldErrors errors = new FieldErrors();
        EndpointRequest.checkUrl(request.url(), true, policy, errors);
        List<String> filter = request.events() == null ? null : EndpointRequest.events(request.events(), errors);
        EndpointRequest.checkDescription(request.description(), errors);
        errors.throwIfAny();
        endpoints.lockOrganization(caller.organizationId());
        if (endpoints.count(caller.organizationId()) >= MAX_ENDPOINTS_PER_ORGANIZATION) {
            throw new EndpointLimitReached(MAX_ENDPOINTS_PER_ORGANIZATION);
        }
        String secret = newSecret();
        WebhookEndpoint endpoint = endpoints.insert(
                UUID.randomUUID(),
                caller.organizationId(),
                Objects.requireNonNull(request.url()),
                filter,
                request.description() == null ? "" : request.description(),
                secret);
        events.publishEvent(new WebhookEndpointEvent.Created(caller.organizationId(), endpoint.id(), endpoint.url()));
        return new Created(endpoint, secret);
    }

    List<WebhookEndpoint> list(Caller caller) {
        return endpoints.list(caller.organizationId());
    }

    @Transactional
    public WebhookEndpoint update(Caller caller, UUID id, EndpointRequest.Update request) {
        FieldErrors errors = new FieldErrors();
        EndpointRequest.checkUrl(request.url(), false, policy, errors);
        List<String> filter = request.events() == null ? null : EndpointRequest.events(request.events(), errors);
        EndpointRequest.checkDescription(request.description(), errors);
        errors.throwIfAny();
        WebhookEndpoint old = endpoints.lock(caller.organizationId(), id).orElseThrow(EndpointNotFound::new);
        String url = request.url() == null ? old.url() : request.url();
        List<String> events =
                request.events() == null ? old.events() : filter == null ? List.of(EventTypes.ALL) : filter;
        String description = request.description() == null ? old.description() : request.description();
        boolean disabled = request.disabled() == null ? old.disabled() : request.disabled();
        WebhookEndpoint updated = endpoints.update(
                id, url, events.equals(List.of(EventTypes.ALL)) ? null : events, description, disabled);
        Map<String, Map<String, Object>> changes = new LinkedHashMap<>();
        change(changes, "url", old.url(), updated.url());
        change(changes, "events", old.events(), updated.events());
        change(changes, "description", old.description(), updated.description());
        change(changes, "disabled", old.disabled(), updated.disabled());
        if (!changes.isEmpty()) {
            this.events.publishEvent(
                    new WebhookEndpointEvent.Updated(caller.organizationId(), id, updated.url(), changes));
        }
        if (old.disabled() && !updated.disabled()) {
            outgoing.deliverAfterCommit(); // its pending deliveries are due again
        }
        return updated;
    }

    @Transactional
    public void delete(Caller caller, UUID id) {
        WebhookEndpoint endpoint = endpoints.lock(caller.organizationId(), id).orElseThrow(EndpointNotFound::new);
        endpoints.delete(id);
        events.publishEvent(new WebhookEndpointEvent.Deleted(caller.organizationId(), id, endpoint.url()));
    }

    /** A new secret; the current one signs beside it for {@code secret-overlap}, and the one before it stops. */
    @Transactional
    public String rotateSecret(Caller caller, UUID id) {
        WebhookEndpoint endpoint = endpoints.lock(caller.organizationId(), id).orElseThrow(EndpointNotFound::new);
        String secret = newSecret();
        endpoints.rotate(id, secret, settings.secretOverlap());
        events.publishEvent(new WebhookEndpointEvent.SecretRotated(caller.organizationId(), id, endpoint.url()));
        return secret;
    }

    Page deliveries(Caller caller, UUID id, @Nullable String limit, @Nullable String cursor) {
        int size = PageCursor.limit(limit);
        PageCursor after = cursor == null ? null : PageCursor.decode(cursor);
        endpoints.find(caller.organizationId(), id).orElseThrow(EndpointNotFound::new);
        List<Delivery> found = deliveries.page(id, after, size + 1);
        if (found.size() <= size) {
            return new Page(found, null);
        }
        Delivery last = found.get(size - 1);
        return new Page(List.copyOf(found.subList(0, size)), new PageCursor(last.createdAt(), last.id()).encode());
    }

    @Transactional
    public OutgoingEvents.Queued retry(Caller caller, UUID id, UUID deliveryId) {
        endpoints.find(caller.organizationId(), id).orElseThrow(EndpointNotFound::new);
        String eventId = deliveries.requestRetry(id, deliveryId).orElseThrow(DeliveryNotFound::new);
        takeManualAttempt(id);
        outgoing.deliverAfterCommit();
        return new OutgoingEvents.Queued(eventId, deliveryId);
    }

    /** Queues a {@code webhook.test} event to this endpoint, whatever its filter. */
    @Transactional
    public OutgoingEvents.Queued test(Caller caller, UUID id) {
        WebhookEndpoint endpoint = endpoints.find(caller.organizationId(), id).orElseThrow(EndpointNotFound::new);
        takeManualAttempt(id);
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("endpoint_id", endpoint.id());
        data.put("message", "A test event sent from kv-portal.");
        return outgoing.publishTo(caller.organizationId(), endpoint.id(), EventTypes.TEST, data);
    }

    /**
     * Counts a test or a retry asked for against the endpoint's {@code manual-attempts-per-minute}, across every
     * instance, in the request's transaction: a refusal (429) rolls back what the request queued.
     */
    private void takeManualAttempt(UUID endpointId) {
        limits.take(
                "webhook-manual-attempts:" + endpointId,
                settings.manualAttemptsPerMinute(),
                Duration.ofMinutes(1),
                "tests and retries of one webhook endpoint");
    }

    /** {@code whsec_} and the base64 of 32 random bytes, as Standard Webhooks secrets are written. */
    static String newSecret() {
        byte[] key = new byte[32];
        RANDOM.nextBytes(key);
        return "whsec_" + Base64.getEncoder().encodeToString(key);
    }

    private static void change(Map<String, Map<String, Object>> changes, String field, Object from, Object to) {
        if (!from.equals(to)) {
            Map<String, Object> change = new LinkedHashMap<>();
            change.put("from", from);
            change.put("to", to);
            changes.put(field, change);
        }
    }
}
