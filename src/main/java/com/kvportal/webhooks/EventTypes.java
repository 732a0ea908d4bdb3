package com.kvportal.webhooks;

import java.util.List;

/** The event types an endpoint may subscribe to; {@code *} stands for every type, now and future. */
final class EventTypes {

    static final String ALL = "*";
    static final String TEST = "webhook.test";

    static final List<String> KNOWN = List.of(
            "api_key.created",
            "api_key.revoked",
            "api_key.leaked",
            "api_key.expiring",
            "api_key.disabled",
            "api_key.enabled",
            "api_key.credits_low",
            "api_key.credits_exhausted",
            "usage.threshold_crossed",
            "usage.writes_refused",
            "usage.writes_allowed",
            "invoice.paid",
            "invoice.payment_failed",
            "subscription.updated",
            "member.joined",
            "member.removed",
            TEST);

    private EventTypes() {}
}
