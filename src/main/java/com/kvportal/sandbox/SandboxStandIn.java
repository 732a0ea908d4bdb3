package com.kvportal.sandbox;

import com.kvportal.common.PaymentProvider;
import com.kvportal.sandbox.api.StripeApiController;
import lombok.RequiredArgsConstructor;
import org.springframework.stereotype.Component;

/** The sandbox as the payment provider: where its Stripe API answers, its own key ({@link SandboxKey}) and its price of pro. */
@Component
@RequiredArgsConstructor
public class SandboxStandIn implements PaymentProvider.StandIn {

    /** The price of the pro tier in the sandbox, unless {@code STRIPE_PRICE_PRO} names another. */
    public static final String PRICE_PRO = "price_sandbox_pro";

    private final SandboxKey key;

    @Override
    public String apiPath() {
        return StripeApiController.PREFIX;
    }

    @Override
    public String secretKey() {
        return key.value();
    }

    @Override
    public String pricePro() {
        return PRICE_PRO;
    }
}
