package com.kvportal.account;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The locks of login ({@code kvportal.login.*}): after {@code maxFailures} failed attempts within {@code window}, the
 * email address is locked for {@code lock}, even for the right password ({@link LoginThrottle}); the {@code
 * maxFailures}-th wrong second-factor code within {@code window} locks every code of the customer for {@code lock}
 * ({@code account.twostep.WrongCodes}).
 */
@ConfigurationProperties("kvportal.login")
@Validated
public record LoginThrottleProperties(
        @DefaultValue("5") @Min(1) int maxFailures,
        @DefaultValue("15m") @NotNull Duration window,
        @DefaultValue("15m") @NotNull Duration lock) {}
