package com.kvportal.billing.providerevents;

import com.kvportal.billing.BillingProblem;
import com.kvportal.billing.stripe.ProviderEvent;
import com.kvportal.billing.stripe.ProviderEventSignature;
import com.kvportal.common.web.CommonProblem;
import com.kvportal.security.ApiContract;
import com.kvportal.security.Credential;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * The payment provider's webhook: verifies the signature over the raw body, then applies the event. Counts every
 * delivery in {@code kvportal.webhook.events}: tag {@code type} (the event's type when it is one billing handles,
 * {@code other} for a verified event of another type, {@code unknown} when the body is not a verified event) and
 * {@code outcome} ({@code applied}, {@code duplicate}, {@code ignored}, {@code rejected} or {@code failed}).
 */
@RestController
@Tag(
        name = "Webhooks",
        description = "Events the payment provider sends; called by the provider only, never by API users.")
@RequiredArgsConstructor
class ProviderEventController {

    static final String METRIC = "kvportal.webhook.events";

    private final ProviderEventSignature signature;
    private final ProviderEvents events;
    private final MeterRegistry meters;

    record WebhookReceipt(
            @Schema(description = "Always true: the event is applied, or was already.") boolean received) {}

    @Operation(
            requestBody =
                    @io.swagger.v3.oas.annotations.parameters.RequestBody(
                            description = "A Stripe event object, signed over its raw bytes.",
                            required = true,
                            content = @Content(mediaType = "application/json", schema = @Schema(type = "object"))))
    @ApiContract(credentials = Credential.STRIPE_SIGNATURE, maxBodyKiB = 1024)
    @BillingProblem.Codes(BillingProblem.MALFORMED_EVENT)
    @CommonProblem.Codes({CommonProblem.PAYMENT_PROVIDER_UNAVAILABLE, CommonProblem.PAYLOAD_TOO_LARGE})
    @PostMapping(path = "/api/v1/billing/webhook", consumes = MediaType.APPLICATION_JSON_VALUE)
    WebhookReceipt receiveProviderEvent(
            @RequestBody(required = false) @Parameter(hidden = true) byte @Nullable [] body,
            @RequestHeader(name = ProviderEventSignature.HEADER, required = false) @Parameter(hidden = true) @Nullable
                    String header) {
        byte[] raw = body == null ? new byte[0] : body;
        ProviderEvent event;
        try {
            signature.verify(raw, header);
            event = ProviderEvent.parse(raw);
        } catch (RuntimeException e) {
            count("unknown", "rejected");
            throw e;
        }
        String type =
                ProviderEventType.of(event.type()).map(ProviderEventType::wire).orElse("other");
        ProviderEvents.Outcome outcome;
        try {
            outcome = events.handle(event);
        } catch (ProviderEvent.MalformedEvent e) {
            count(type, "rejected");
            throw e;
        } catch (RuntimeException e) {
            count(type, "failed");
            throw e;
        }
        count(type, outcome.tag());
        return new WebhookReceipt(true);
    }

    private void count(String type, String outcome) {
        Counter.builder(METRIC)
                .description("Webhook deliveries by event type and outcome")
                .tag("type", type)
                .tag("outcome", outcome)
                .register(meters)
                .increment();
    }
}
