package com.kvportal.billing.web;

import com.kvportal.billing.Tier;
import com.kvportal.common.web.ProblemException;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.springframework.http.HttpStatus;

/** The ways a billing call fails, each with its stable problem code. */
public final class BillingProblems {

    private BillingProblems() {}

    public static final class UnknownTier extends ProblemException {
        public UnknownTier(String tier) {
            super(
                    HttpStatus.BAD_REQUEST,
                    "unknown_tier",
                    "There is no tier named '" + abbreviate(tier) + "'; the tiers are "
                            + Arrays.stream(Tier.values()).map(Tier::wire).collect(Collectors.joining(", "))
                            + " (free is what an organization has without a subscription: buy pro).");
        }
    }

    public static final class TierNotPurchasable extends ProblemException {
        public TierNotPurchasable(Tier tier) {
            super(
                    HttpStatus.BAD_REQUEST,
                    "tier_not_purchasable",
                    "The " + tier.wire() + " tier cannot be bought; it is what an organization has without one.");
        }
    }

    public static final class EmailUnverified extends ProblemException {
        public EmailUnverified() {
            super(
                    HttpStatus.FORBIDDEN,
                    "email_unverified",
                    "Verify your email address first: open the link we mailed you, or ask for a new one with POST"
                            + " /api/v1/account/verification-email.");
        }
    }

    public static final class AlreadySubscribed extends ProblemException {
        public AlreadySubscribed(Tier tier) {
            super(
                    HttpStatus.CONFLICT,
                    "already_subscribed",
                    "The organization already has a " + tier.wire() + " subscription.");
        }
    }

    public static final class SubscriptionNotFound extends ProblemException {
        public SubscriptionNotFound() {
            super(
                    HttpStatus.NOT_FOUND,
                    "subscription_not_found",
                    "The organization has no subscription; it is on the free plan.");
        }
    }

    public static final class NoBillingAccount extends ProblemException {
        public NoBillingAccount() {
            super(
                    HttpStatus.CONFLICT,
                    "no_billing_account",
                    "The organization has no account at the payment provider yet; start a checkout first.");
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
