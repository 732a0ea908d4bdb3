package com.kvportal.billing.stripe;

import jakarta.validation.constraints.Pattern;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How billing reaches the payment provider's API.
 *
 * @param apiBase another API base than the provider's (Stripe's, or the sandbox's), e.g. for a test; empty for none
 * @param connectTimeout how long to wait for a connection
 * @param readTimeout how long to wait for an answer
 * @param automaticTax {@code STRIPE_AUTOMATIC_TAX=on}: checkout collects the billing address and the provider taxes
 *     the subscription's invoices by it ({@code automatic_tax})
 */
@ConfigurationProperties("kvportal.stripe")
@Validated
record StripeProperties(
        @DefaultValue("") @Pattern(regexp = "|https?://\\S+", message = "must be empty or an http(s) URL")
                String apiBase,
        @DefaultValue("5s") @DurationMin(millis = 1) Duration connectTimeout,
        @DefaultValue("20s") @DurationMin(millis = 1) Duration readTimeout,
        @DefaultValue("false") boolean automaticTax) {}
