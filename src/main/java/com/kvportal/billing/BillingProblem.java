package com.kvportal.billing;

import static com.kvportal.common.web.ProblemCode.define;

import com.kvportal.common.web.ProblemCode;
import com.kvportal.common.web.ProblemCodes;
import com.kvportal.common.web.ProblemException;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.util.Arrays;
import java.util.stream.Collectors;
import lombok.Getter;
import lombok.RequiredArgsConstructor;
import org.springframework.http.HttpStatus;

/**
 * The problem codes of billing and the payment provider's events (see {@link ProblemCode}), and the exceptions that
 * answer them, thrown where the rule is (checkout, subscription).
 */
@Getter
@RequiredArgsConstructor
public enum BillingProblem implements ProblemCode {
    ALREADY_SUBSCRIBED(define(
            HttpStatus.CONFLICT,
            "already_subscribed",
            "The organization already has a live subscription (on this tier, or on another: change the plan instead).",
            "The organization already has a pro subscription.")),
    MALFORMED_EVENT(define(
            HttpStatus.BAD_REQUEST,
            "malformed_event",
            "The body is signed but is not a payment provider event.",
            "The body is not a payment provider event.")),
    NO_BILLING_ACCOUNT(define(
            HttpStatus.CONFLICT,
            "no_billing_account",
            "The organization has no customer at the payment provider yet (no checkout so far).",
            "The organization has no account at the payment provider yet; start a checkout first.")),
    NO_SCHEDULED_CHANGE(define(
            HttpStatus.NOT_FOUND,
            "no_scheduled_change",
            "The subscription has no plan change scheduled for the end of its period: there is nothing to cancel.",
            "No plan change is scheduled; the subscription stays on team. Schedule one with POST"
                    + " /api/v1/billing/change-plan.")),
    PROMOTION_CODE_INVALID(define(
            HttpStatus.BAD_REQUEST,
            "promotion_code_invalid",
            "The promotion code is unknown, no longer active, expired or used up; nothing was started.",
            "The promotion code 'SPRING25' cannot be used: it is unknown, inactive, expired or used up. Check it, or"
                    + " check out without a code.")),
    SUBSCRIPTION_NOT_FOUND(define(
            HttpStatus.NOT_FOUND,
            "subscription_not_found",
            "The organization has no live subscription: it is on the free plan.",
            "The organization has no subscription; it is on the free plan.")),
    TIER_NOT_PURCHASABLE(define(
            HttpStatus.BAD_REQUEST,
            "tier_not_purchasable",
            "The tier cannot be bought: free, or a tier whose price the provider is not configured with.",
            "The free tier cannot be bought; it is what an organization has without one.")),
    UNKNOWN_TIER(define(
            HttpStatus.BAD_REQUEST,
            "unknown_tier",
            "There is no tier of this name.",
            "There is no tier named 'gold'; the tiers are free, pro, team (free is what an organization has"
                    + " without a subscription: buy pro or team).")),
    USE_CANCEL(define(
            HttpStatus.BAD_REQUEST,
            "use_cancel",
            "The free plan is not a plan to change to: cancel the subscription instead.",
            "To go back to the free plan, cancel the subscription (POST /api/v1/billing/cancel): it ends with the"
                    + " current period."));

    private final Definition definition;

    /** Names the codes of this enum that an operation answers, on the method next to its {@code @ApiContract}. */
    @Retention(RetentionPolicy.RUNTIME)
    @ProblemCodes
    public @interface Codes {
        BillingProblem[] value();
    }

    /**
     * The codes of a plan change, named once for the change and its preview (the preview refuses what the change
     * would refuse): an unknown tier, free (cancel instead), a tier without a price, no live subscription, the tier
     * it has.
     */
    @Retention(RetentionPolicy.RUNTIME)
    @ProblemCodes
    public @interface PlanChangeCodes {
        BillingProblem[] value() default {
            UNKNOWN_TIER, USE_CANCEL, TIER_NOT_PURCHASABLE, SUBSCRIPTION_NOT_FOUND, ALREADY_SUBSCRIBED
        };
    }

    // the exceptions that answer these codes

    /** {@link #PROMOTION_CODE_INVALID}. */
    public static final class PromotionCodeInvalid extends ProblemException {
        public PromotionCodeInvalid(String code) {
            super(
                    BillingProblem.PROMOTION_CODE_INVALID,
                    "The promotion code '" + abbreviate(code) + "' cannot be used: it is unknown, inactive, expired or"
                            + " used up. Check it, or check out without a code.");
        }
    }

    /** {@link #UNKNOWN_TIER}. */
    public static final class UnknownTier extends ProblemException {
        public UnknownTier(String tier) {
            super(
                    BillingProblem.UNKNOWN_TIER,
                    "There is no tier named '" + abbreviate(tier) + "'; the tiers are "
                            + Arrays.stream(Tier.values()).map(Tier::wire).collect(Collectors.joining(", "))
                            + " (free is what an organization has without a subscription: buy pro or team).");
        }
    }

    /**
     * {@link #TIER_NOT_PURCHASABLE}: free, which no one buys, or a paid tier whose price at the provider the operator
     * has not configured (team on Stripe without its price).
     */
    public static final class TierNotPurchasable extends ProblemException {
        public TierNotPurchasable(Tier tier) {
            super(
                    BillingProblem.TIER_NOT_PURCHASABLE,
                    tier == Tier.FREE
                            ? "The " + tier.wire()
                                    + " tier cannot be bought; it is what an organization has without one."
                            : "The " + tier.wire()
                                    + " tier is not for sale here yet: the operator has not named its price"
                                    + " at the payment provider (STRIPE_PRICE_" + tier.name()
                                    + "). Choose another tier, or ask the operator.");
        }
    }

    /**
     * {@link #ALREADY_SUBSCRIBED}: the organization's live subscription is on the tier wanted, or on another one (then
     * it changes its plan instead of a second checkout).
     */
    public static final class AlreadySubscribed extends ProblemException {
        public AlreadySubscribed(Tier live, Tier wanted) {
            super(
                    BillingProblem.ALREADY_SUBSCRIBED,
                    live == wanted
                            ? "The organization already has a " + live.wire() + " subscription."
                            : "The organization already has a " + live.wire() + " subscription; to move to "
                                    + wanted.wire() + ", change the plan (POST /api/v1/billing/change-plan) instead"
                                    + " of a second checkout.");
        }
    }

    public static final class UseCancel extends ProblemException {
        public UseCancel() {
            super(BillingProblem.USE_CANCEL);
        }
    }

    public static final class NoScheduledChange extends ProblemException {
        public NoScheduledChange(Tier tier) {
            super(
                    BillingProblem.NO_SCHEDULED_CHANGE,
                    "No plan change is scheduled; the subscription stays on " + tier.wire() + ". To schedule one,"
                            + " POST /api/v1/billing/change-plan with the tier.");
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
