package com.kvportal.usage;

import com.kvportal.support.Api;
import java.time.Instant;
import tools.jackson.databind.JsonNode;

/** An organization that bought pro at the sandbox, and its subscription as the provider knows it. */
record ProOrganization(
        Api owner,
        Api.Account account,
        String providerSubscription,
        String customer,
        Instant periodStart,
        Instant periodEnd) {

    /** Signs up a new organization with {@code owner} and buys it pro, paying in {@code browser}. */
    static ProOrganization buy(Api owner, Api browser) {
        Api.Account account = owner.signup();
        JsonNode subscription = Subscribe.pro(owner, browser);
        return new ProOrganization(
                owner,
                account,
                subscription.get("provider_subscription_id").asString(),
                subscription.get("provider_customer_id").asString(),
                Instant.parse(subscription.get("current_period_start").asString()),
                Instant.parse(subscription.get("current_period_end").asString()));
    }
}
