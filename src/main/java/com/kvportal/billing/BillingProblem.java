package com.kvportal.billing;

import static com.kvportal.common.web.ProblemCode.define;

import com.kvportal.common.web.ProblemCode;
import com.kvportal.common.web.ProblemCodes;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import lombok.Getter;
import lombok.RequiredArgsConstructor;
import org.springframework.http.HttpStatus;

/** The problem codes of billing and the payment provider's webhook (see {@link ProblemCode}). */
@Getter
@RequiredArgsConstructor
public enum BillingProblem implements ProblemCode {
    ALREADY_SUBSCRIBED(define(
            HttpStatus.CONFLICT,
            "already_subscribed",
            "The organization already has a live subscription on this tier.",
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
    SUBSCRIPTION_NOT_FOUND(define(
            HttpStatus.NOT_FOUND,
            "subscription_not_found",
            "The organization has no live subscription: it is on the free plan.",
            "The organization has no subscription; it is on the free plan.")),
    TIER_NOT_PURCHASABLE(define(
            HttpStatus.BAD_REQUEST,
            "tier_not_purchasable",
            "The free tier cannot be bought.",
            "The free tier cannot be bought; it is what an organization has without one.")),
    UNKNOWN_TIER(define(
            HttpStatus.BAD_REQUEST,
            "unknown_tier",
            "There is no tier of this name.",
            "There is no tier named 'gold'; the tiers are free, pro (free is what an organization has without a"
                    + " subscription: buy pro)."));

    private final Definition definition;

    /** Names the codes of this enum that an operation answers, on the method next to its {@code @ApiContract}. */
    @Retention(RetentionPolicy.RUNTIME)
    @ProblemCodes
    public @interface Codes {
        BillingProblem[] value();
    }
}
