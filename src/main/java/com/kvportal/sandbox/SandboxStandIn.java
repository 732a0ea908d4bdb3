package com.kvportal.sandbox;

import com.kvportal.common.PaymentProvider;
import com.kvportal.sandbox.api.StripeApiController;
import lombok.RequiredArgsConstructor;
import org.springframework.stereotype.Component;

/** The sandbox as the payment provider: where its Stripe API answers, its own key ({@link SandboxKey}) and its prices of pro and team. */
@Component
@RequiredArgsConstructor
public class SandboxStandIn implements PaymentProvider.StandIn {

    /** The price of the pro tier in the sandbox, unless {@code STRIPE_PRICE_PRO} names another. */
    public static final String PRICE_PRO = "price_sandbox_pro";

    /** The price of the team tier in the sandbox, unless {@code STRIPE_PRICE_TEAM} names another. */
    public static final String PRICE_TEAM = "price_sandbox_team";

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

    @Override
    public String priceTeam() {
        return PRICE_TEAM;
    }
}
