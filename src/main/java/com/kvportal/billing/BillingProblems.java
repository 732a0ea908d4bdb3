package com.kvportal.billing;

import com.kvportal.common.web.ProblemException;
import java.util.Arrays;
import java.util.stream.Collectors;

/** The ways a billing call fails, each with its {@link BillingProblem} code. */
final class BillingProblems {

    private BillingProblems() {}

    static final class UnknownTier extends ProblemException {
        UnknownTier(String tier) {
            super(
                    BillingProblem.UNKNOWN_TIER,
                    "There is no tier named '" + abbreviate(tier) + "'; the tiers are "
                            + Arrays.stream(Tier.values()).map(Tier::wire).collect(Collectors.joining(", "))
                            + " (free is what an organization has without a subscription: buy pro).");
        }
    }

    static final class TierNotPurchasable extends ProblemException {
        TierNotPurchasable(Tier tier) {
            super(
                    BillingProblem.TIER_NOT_PURCHASABLE,
                    "The " + tier.wire() + " tier cannot be bought; it is what an organization has without one.");
        }
    }

    static final class EmailUnverified extends ProblemException {
        EmailUnverified() {
            super(
                    BillingProblem.EMAIL_UNVERIFIED,
                    "Verify your email address first: open the link we mailed you, or ask for a new one with POST"
                            + " /api/v1/account/verification-email.");
        }
    }

    static final class AlreadySubscribed extends ProblemException {
        AlreadySubscribed(Tier tier) {
            super(
                    BillingProblem.ALREADY_SUBSCRIBED,
                    "The organization already has a " + tier.wire() + " subscription.");
        }
    }

    static final class SubscriptionNotFound extends ProblemException {
        SubscriptionNotFound() {
            super(BillingProblem.SUBSCRIPTION_NOT_FOUND);
        }
    }

    static final class NoBillingAccount extends ProblemException {
        NoBillingAccount() {
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
