package com.kvportal.usage;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import tools.jackson.databind.JsonNode;

/** Buys pro for an organization through the sandbox's hosted checkout, as a person would. */
public final class Subscribe {

    private Subscribe() {}

    /** Checks out, pays and follows the provider's redirect; answers the live subscription. */
    public static JsonNode pro(Api owner, Api browser) {
        String sessionId = owner.startCheckout("pro");
        Api.Response paid = browser.payCheckout(sessionId, "succeeded");
        assertThat(paid.status()).as(paid.toString()).isEqualTo(303);
        assertThat(browser.follow(paid).header("Location")).isEqualTo("/dashboard/billing?checkout=success");
        return owner.subscription();
    }
}
