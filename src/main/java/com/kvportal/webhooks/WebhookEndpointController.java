package com.kvportal.webhooks;

import com.kvportal.common.web.PathIds;
import com.kvportal.common.web.ShownOnce;
import com.kvportal.openapi.Paged;
import com.kvportal.security.ApiContract;
import com.kvportal.security.Caller;
import com.kvportal.security.Credential;
import com.kvportal.security.Permission;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/webhook-endpoints")
@Tag(
        name = "Webhook endpoints",
        description = "Where the organization's events are POSTed, signed as Standard Webhooks says, and their"
                + " delivery logs.")
@RequiredArgsConstructor
class WebhookEndpointController {

    private static final String DELIVERY_ID = "delivery_id";

    private final WebhookEndpoints endpoints;

    @Schema(name = "CreatedWebhookEndpoint")
    record CreatedEndpoint(
            UUID id,
            String url,
            List<String> events,
            String description,
            boolean disabled,
            Instant createdAt,
            @Schema(
                            description = "The signing secret, whsec_ + base64. Shown in this answer only.",
                            example = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
                    String secret) {}

    record EndpointList(List<WebhookEndpoint> endpoints) {}

    @Schema(name = "WebhookSecret")
    record Secret(@Schema(description = "The new signing secret; shown in this answer only.") String secret) {}

    @Schema(name = "WebhookDeliveryQueued")
    record Queued(
            @Schema(description = "The event's id: its webhook-id.", example = "msg_…") String eventId,
            @Schema(description = "The delivery, as the endpoint's delivery log lists it.") UUID deliveryId) {

        static Queued of(OutgoingEvents.Queued queued) {
            return new Queued(queued.eventId(), queued.deliveryId());
        }
    }

    @ApiContract(
            success = HttpStatus.CREATED,
            credentials = Credential.PORTAL,
            permission = Permission.MANAGE_WEBHOOKS,
            verifiedEmail = true)
    @WebhookProblem.Codes(WebhookProblem.ENDPOINT_LIMIT_REACHED)
    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<CreatedEndpoint> createWebhookEndpoint(Caller caller, @RequestBody EndpointRequest.Create request) {
        WebhookEndpoints.Created created = endpoints.create(caller, request);
        WebhookEndpoint e = created.endpoint();
        return ShownOnce.created(
                "/api/v1/webhook-endpoints/" + e.id(),
                new CreatedEndpoint(
                        e.id(), e.url(), e.events(), e.description(), e.disabled(), e.createdAt(), created.secret()));
    }

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.READ)
    @GetMapping
    EndpointList listWebhookEndpoints(Caller caller) {
        return new EndpointList(endpoints.list(caller));
    }

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.MANAGE_WEBHOOKS)
    @WebhookProblem.Codes(WebhookProblem.WEBHOOK_ENDPOINT_NOT_FOUND)
    @PatchMapping(path = "/" + PathIds.ID, consumes = MediaType.APPLICATION_JSON_VALUE)
    WebhookEndpoint updateWebhookEndpoint(
            Caller caller, @PathVariable UUID id, @RequestBody EndpointRequest.Update request) {
        return endpoints.update(caller, id, request);
    }

    @ApiContract(
            success = HttpStatus.NO_CONTENT,
            credentials = Credential.PORTAL,
            permission = Permission.MANAGE_WEBHOOKS)
    @WebhookProblem.Codes(WebhookProblem.WEBHOOK_ENDPOINT_NOT_FOUND)
    @DeleteMapping("/" + PathIds.ID)
    void deleteWebhookEndpoint(Caller caller, @PathVariable UUID id) {
        endpoints.delete(caller, id);
    }

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.MANAGE_WEBHOOKS)
    @WebhookProblem.Codes(WebhookProblem.WEBHOOK_ENDPOINT_NOT_FOUND)
    @PostMapping("/" + PathIds.ID + "/secret/rotate")
    ResponseEntity<Secret> rotateWebhookSecret(Caller caller, @PathVariable UUID id) {
        return ShownOnce.ok(new Secret(endpoints.rotateSecret(caller, id)));
    }

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.READ)
    @WebhookProblem.Codes(WebhookProblem.WEBHOOK_ENDPOINT_NOT_FOUND)
    @GetMapping("/" + PathIds.ID + "/deliveries")
    WebhookEndpoints.Page listWebhookDeliveries(
            Caller caller,
            @PathVariable UUID id,
            @RequestParam(required = false) @Paged.Limit("Deliveries per page.") @Nullable String limit,
            @RequestParam(required = false) @Paged.Cursor @Nullable String cursor) {
        return endpoints.deliveries(caller, id, limit, cursor);
    }

    @ApiContract(
            success = HttpStatus.ACCEPTED,
            credentials = Credential.PORTAL,
            permission = Permission.MANAGE_WEBHOOKS)
    @WebhookProblem.Codes({WebhookProblem.WEBHOOK_ENDPOINT_NOT_FOUND, WebhookProblem.WEBHOOK_DELIVERY_NOT_FOUND})
    @PostMapping("/" + PathIds.ID + "/deliveries/{" + DELIVERY_ID + ":" + PathIds.UUID + "}/retry")
    Queued retryWebhookDelivery(Caller caller, @PathVariable UUID id, @PathVariable(DELIVERY_ID) UUID deliveryId) {
        return Queued.of(endpoints.retry(caller, id, deliveryId));
    }

    @ApiContract(
            success = HttpStatus.ACCEPTED,
            credentials = Credential.PORTAL,
            permission = Permission.MANAGE_WEBHOOKS)
    @WebhookProblem.Codes(WebhookProblem.WEBHOOK_ENDPOINT_NOT_FOUND)
    @PostMapping("/" + PathIds.ID + "/test")
    Queued testWebhookEndpoint(Caller caller, @PathVariable UUID id) {
        return Queued.of(endpoints.test(caller, id));
    }
}
