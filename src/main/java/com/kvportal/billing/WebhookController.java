package com.kvportal.billing;

import com.kvportal.billing.stripe.ProviderEvent;
import com.kvportal.billing.stripe.WebhookSignature;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/** The payment provider's webhook: verifies the signature over the raw body, then applies the event. */
@RestController
class WebhookController {

    private final WebhookSignature signature;
    private final WebhookEvents events;

    WebhookController(WebhookSignature signature, WebhookEvents events) {
        this.signature = signature;
        this.events = events;
    }

    @PostMapping("/api/v1/billing/webhook")
    Map<String, Boolean> receive(
            @RequestBody(required = false) byte @Nullable [] body,
            @RequestHeader(name = WebhookSignature.HEADER, required = false) @Nullable String header) {
        byte[] raw = body == null ? new byte[0] : body;
        signature.verify(raw, header);
        events.handle(ProviderEvent.parse(raw));
        return Map.of("received", true);
    }
}
