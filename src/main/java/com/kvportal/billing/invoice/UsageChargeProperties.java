package com.kvportal.billing.invoice;

import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How usage charges reach the provider.
 *
 * @param retryInterval how often every instance sends the charges whose send after commit failed or never ran (the
 *     provider was down, the instance died), and how long a charge waits before such a retry takes it
 */
@ConfigurationProperties("kvportal.billing.usage-charges")
@Validated
record UsageChargeProperties(@DefaultValue("10s") @DurationMin(millis = 1) Duration retryInterval) {}
