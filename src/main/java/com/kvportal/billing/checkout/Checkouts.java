package com.kvportal.billing.checkout;

import com.kvportal.billing.BillingEvent.CheckoutStarted;
import com.kvportal.billing.BillingProblem.AlreadySubscribed;
import com.kvportal.billing.BillingProblem.PromotionCodeInvalid;
import com.kvportal.billing.BillingProblem.UnknownTier;
import com.kvportal.billing.Tier;
import com.kvportal.billing.ids.ProviderCustomerId;
import com.kvportal.billing.stripe.ProviderCheckout;
import com.kvportal.billing.stripe.StripeGateway;
import com.kvportal.billing.stripe.StripeGateway.CheckoutSession;
import com.kvportal.billing.stripe.StripeGateway.PaymentProviderUnavailable;
import com.kvportal.billing.subscription.BillingAccounts;
import com.kvportal.billing.subscription.Plans;
import com.kvportal.billing.subscription.StoredSubscriptions;
import com.kvportal.common.AppBaseUrl;
import com.kvportal.common.WireName;
import com.kvportal.common.validation.Required;
import com.kvportal.security.Caller;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/** The provider's hosted checkout: starting one, and its success callback. */
@Service
@RequiredArgsConstructor
public class Checkouts {

    static final String SUCCESS_PATH = "/api/v1/billing/checkout/success";
    static final String CANCEL_PATH = "/api/v1/billing/checkout/cancel";

    private static final Pattern SESSION_ID = Pattern.compile("cs_[A-Za-z0-9_]{1,250}");

    /** What a promotion code can be at Stripe: letters, digits, dashes and underscores. */
    private static final Pattern PROMOTION_CODE = Pattern.compile("[A-Za-z0-9_-]{1,200}");

    private static final Logger log = LoggerFactory.getLogger(Checkouts.class);

    private final Plans plans;
    private final StoredCheckoutSessions sessions;
    private final BillingAccounts billingAccounts;
    private final StoredSubscriptions subscriptions;
    private final ProviderCustomers customers;
    private final CheckoutCompletion completion;
    private final StripeGateway gateway;
    private final AppBaseUrl baseUrl;
    private final ApplicationEventPublisher events;
    private final TransactionTemplate transaction;

    public record CheckoutRequest(
            @Schema(
                            description = "The tier to buy; free cannot be bought.",
                            allowableValues = {"free", "pro", "team"},
                            example = "pro")
                    @Required
                    @Nullable
                    String tier,
            @Schema(
                            description = "A promotion code the customer was given (its text, not the provider's id);"
                                    + " without one, the hosted checkout page has a field to enter one.",
                            nullable = true,
                            maxLength = 200,
                            example = "SPRING25")
                    @Nullable
                    String promotionCode) {}

    /** Starts a hosted checkout for the tier, with the organization's one provider customer. */
    public CheckoutSession start(Caller caller, CheckoutRequest request) {
        Tier tier = WireName.of(Tier.class, Objects.requireNonNull(request.tier()))
                .orElseThrow(() -> new UnknownTier(request.tier()));
        // free, or a tier without a price at the provider: refused before anything is made there
        String price = plans.providerPrice(tier);
        // one subscription per organization: another paid plan is reached by a plan change, not a second checkout
        Optional<Tier> live =
                subscriptions.live(caller.organizationId()).map(s -> s.plan().tier());
        if (live.isPresent()) {
            throw new AlreadySubscribed(live.get(), tier);
        }
        // an unusable code is refused before anything is made at the provider
        String promotionCode = request.promotionCode() == null ? null : promotionCodeId(request.promotionCode());
        UUID organizationId = caller.organizationId();
        ProviderCustomerId customer = customers.of(organizationId, caller.customerId());
        // at most one open session per organization: the earlier ones are expired first (a provider failure
        // answers 502 before anything new exists)
        expire(sessions.open(organizationId));
        // a trial only for an organization (and provider customer) that never had a subscription
        int trialDays = subscriptions.everHad(organizationId, customer)
                ? 0
                : plans.byTier(tier).trialDays();
        CheckoutSession session = gateway.createCheckout(
                customer,
                caller.organizationId(),
                caller.customerId(),
                price,
                promotionCode,
                trialDays,
                baseUrl.resolve(SUCCESS_PATH) + "?session_id={CHECKOUT_SESSION_ID}",
                baseUrl.resolve(CANCEL_PATH));
        // recorded one at a time per organization: a session started concurrently meanwhile is expired now
        List<String> earlier = transaction.execute(status -> {
            billingAccounts.lock(organizationId);
            List<String> open = sessions.open(organizationId);
            sessions.insert(session.id(), organizationId, caller.customerId());
            events.publishEvent(new CheckoutStarted(organizationId, caller.customerId(), tier, session.id()));
            return open;
        });
        try {
            expire(Objects.requireNonNull(earlier));
        } catch (PaymentProviderUnavailable e) {
            // left open here, so the next checkout tries again; should it be paid meanwhile, the second
            // subscription is canceled and refunded (DuplicateSubscriptions)
            log.warn("Could not expire an earlier checkout session of organization {}", organizationId);
        }
        return session;
    }

    /** The provider's id of the code a customer entered: an active code that can be redeemed now. */
    private String promotionCodeId(String code) {
        String text = code.strip();
        if (!PROMOTION_CODE.matcher(text).matches()) {
            throw new PromotionCodeInvalid(code);
        }
        return gateway.redeemablePromotionCode(text).orElseThrow(() -> new PromotionCodeInvalid(text));
    }

    /** Expires the sessions at the provider, settling each as the provider then states it. */
    private void expire(List<String> open) {
        for (String id : open) {
            Optional<String> status = gateway.expireCheckout(id);
            if (status.isEmpty() || status.get().equals("expired")) {
                sessions.settle(id, StoredCheckoutSessions.Status.EXPIRED);
            } else if (status.get().equals("complete")) {
                // paid just before: its subscription comes with the webhook
                sessions.settle(id, StoredCheckoutSessions.Status.COMPLETE);
            }
        }
    }

    /**
     * The checkout's success callback. Trusts nothing in the URL: for an open session of ours it asks the provider for
     * the session and, when that is complete, records the subscription of the organization named in the provider's
     * session. Any other id is answered from the table alone.
     *
     * @return true when the subscription is recorded; false while it is pending (or the session is unknown)
     */
    public boolean complete(@Nullable String sessionId) {
        if (sessionId == null || !SESSION_ID.matcher(sessionId).matches()) {
            return false;
        }
        // the provider is asked only about a session this service started and that is not settled yet, so that
        // made-up ids cost no provider call
        Optional<StoredCheckoutSessions.Status> ours = sessions.status(sessionId);
        if (ours.isEmpty() || ours.get() == StoredCheckoutSessions.Status.EXPIRED) {
            return false;
        }
        if (ours.get() == StoredCheckoutSessions.Status.COMPLETE) {
            return true;
        }
        try {
            Optional<ProviderCheckout> checkout = gateway.retrieveCheckout(sessionId);
            return checkout.isPresent()
                    && completion.complete(checkout.get(), () -> true) == CheckoutCompletion.Outcome.RECORDED;
        } catch (PaymentProviderUnavailable e) {
            // the webhook will bring the news; the page says it is pending
            return false;
        }
    }
}
