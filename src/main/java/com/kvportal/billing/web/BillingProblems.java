package com.kvportal.billing.web;

import com.kvportal.billing.BillingProblem;
import com.kvportal.billing.Tier;
import com.kvportal.common.web.ProblemException;
import java.util.Arrays;
import java.util.stream.Collectors;

/** The ways a billing call fails, each with its {@link BillingProblem} code. */
public final class BillingProblems {

    private BillingProblems() {}

    public static final class UnknownTier extends ProblemException {
        public UnknownTier(String tier) {
            super(
                    BillingProblem.UNKNOWN_TIER,
                    "There is no tier named '" + abbreviate(tier) + "'; the tiers are "
                            + Arrays.stream(Tier.values()).map(Tier::wire).collect(Collectors.joining(", "))
                            + " (free is what an organization has without a subscription: buy pro).");
        }
    }

    public static final class TierNotPurchasable extends ProblemException {
        public TierNotPurchasable(Tier tier) {
            super(
                    BillingProblem.TIER_NOT_PURCHASABLE,
                    "The " + tier.wire() + " tier cannot be bought; it is what an organization has without one.");
        }
    }

    public static final class AlreadySubscribed extends ProblemException {
        public AlreadySubscribed(Tier tier) {
            super(
                    BillingProblem.ALREADY_SUBSCRIBED,
                    "The organization already has a " + tier.wire() + " subscription.");
        }
    }

    public static final class SubscriptionNotFound extends ProblemException {
        public SubscriptionNotFound() {
            super(BillingProblem.SUBSCRIPTION_NOT_FOUND);
        }
    }

    public static final class NoBillingAccount extends ProblemException {
        public NoBillingAccount() {
            super(BillingProblem.NO_BILLING_ACCOUNT);
        }
    }

    private static String abbreviate(String value) {
        String printable = value.codePoints()
                .filter(c -> !Character.isISOControl(c))
                .limit(40)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
                .toString();
        return value.length() > printable.length() ? printable + "..." : printable;
    }
}
