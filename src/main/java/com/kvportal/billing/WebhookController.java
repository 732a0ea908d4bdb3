package com.kvportal.billing;

import com.kvportal.billing.stripe.ProviderEvent;
import com.kvportal.billing.stripe.WebhookSignature;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import org.jspecify.annotations.Nullable;
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
class WebhookController {

    static final String METRIC = "kvportal.webhook.events";

    private final WebhookSignature signature;
    private final WebhookEvents events;
    private final MeterRegistry meters;

    WebhookController(WebhookSignature signature, WebhookEvents events, MeterRegistry meters) {
        this.signature = signature;
        this.events = events;
        this.meters = meters;
    }

    @PostMapping("/api/v1/billing/webhook")
    Map<String, Boolean> receive(
            @RequestBody(required = false) byte @Nullable [] body,
            @RequestHeader(name = WebhookSignature.HEADER, required = false) @Nullable String header) {
        byte[] raw = body == null ? new byte[0] : body;
        ProviderEvent event;
        try {
            signature.verify(raw, header);
            event = ProviderEvent.parse(raw);
        } catch (RuntimeException e) {
            count("unknown", "rejected");
            throw e;
        }
        String type = WebhookEvents.HANDLED.contains(event.type()) ? event.type() : "other";
        WebhookEvents.Outcome outcome;
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
        return Map.of("received", true);
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
