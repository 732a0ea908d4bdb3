package com.kvportal.billing.ids;

/**
 * A subscription at the payment provider ({@code sub_...}); never confused with our own subscription's UUID, nor with
 * a subscription schedule, whose ids the provider starts {@code sub_sched_}.
 */
public final class ProviderSubscriptionId extends ProviderId {

    private static final String SCHEDULE_PREFIX = "sub_sched_";

    public ProviderSubscriptionId(String value) {
        super(notASchedule(value), "sub_", "subscription");
    }

    private static String notASchedule(String value) {
        if (value != null && value.startsWith(SCHEDULE_PREFIX)) {
            throw new IllegalArgumentException("not a provider subscription id but a schedule's: " + value);
        }
        return value;
    }
}
