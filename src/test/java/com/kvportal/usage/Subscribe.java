package com.kvportal.usage;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import tools.jackson.databind.JsonNode;

/** Buys pro for an organization through the sandbox's hosted checkout, as a person would. */
public final class Subscribe {

    private Subscribe() {}

    /** Checks out, pays and follows the provider's redirect; answers the live subscription. */
    public static JsonNode pro(Api owner, Api browser, String baseUrl) {
        String sessionId = owner.startCheckout("pro");
        Api.Response paid = browser.send(
                "POST",
                "/sandbox/checkout/" + sessionId + "/pay",
                "outcome=succeeded",
                "application/x-www-form-urlencoded");
        assertThat(paid.status()).as(paid.toString()).isEqualTo(303);
        Api.Response back = browser.get(paid.header("Location").substring(baseUrl.length()));
        assertThat(back.header("Location")).isEqualTo("/dashboard/billing?checkout=success");
        Api.Response subscription = owner.get("/api/v1/billing/subscription");
        assertThat(subscription.status()).as(subscription.toString()).isEqualTo(200);
        return subscription.json().get("subscription");
    }
}
