package com.kvportal.billing.subscription;

import com.kvportal.billing.ids.ProviderSubscriptionId;
import com.kvportal.billing.stripe.ProviderSubscription;
import com.kvportal.billing.stripe.StripeGateway;
import java.util.function.Function;
import lombok.RequiredArgsConstructor;
import org.springframework.stereotype.Component;

/**
 * Settles news that an event could not ({@link SubscriptionLedger.Applied#UNCERTAIN}): reads the subscription as the
 * provider has it now and hands it on to be applied, one at a time with the organization's plan changes and other
 * such reads on every instance ({@link PlanChanges#oneAtATime}), so that of two reads the later is applied last and
 * the last word is the provider's latest state.
 */
@Component
@RequiredArgsConstructor
public class SubscriptionRefresh {

    private final StoredSubscriptions subscriptions;
    private final PlanChanges planChanges;
    private final StripeGateway gateway;

    /**
     * Answers what {@code apply} answers for the provider's state of the subscription now, or for {@code stated} (the
     * event's) when the provider knows it no longer.
     */
    public <T> T settle(ProviderSubscription stated, Function<ProviderSubscription, T> apply) {
        ProviderSubscriptionId id = stated.id();
        Subscription recorded = subscriptions.byProviderId(id).orElseThrow();
        return planChanges.oneAtATime(
                recorded.organizationId(),
                () -> apply.apply(gateway.findSubscription(id).orElse(stated)));
    }
}
