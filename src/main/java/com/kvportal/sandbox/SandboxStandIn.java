package com.kvportal.sandbox;

import com.kvportal.common.PaymentProvider;
import org.springframework.stereotype.Component;

/** The sandbox as the payment provider: where its Stripe API answers, its secret key and its price of pro. */
@Component
@SandboxMode
public class SandboxStandIn implements PaymentProvider.StandIn {

    /** The price of the pro tier in the sandbox, unless {@code STRIPE_PRICE_PRO} names another. */
    public static final String PRICE_PRO = "price_sandbox_pro";

    public static final String SECRET_KEY = "sk_test_sandbox";

    @Override
    public String apiPath() {
        return StripeApiController.PREFIX;
    }

    @Override
    public String secretKey() {
        return SECRET_KEY;
    }

    @Override
    public String pricePro() {
        return PRICE_PRO;
    }
}
