package com.kvportal.common.limits;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The abuse limits ({@code kvportal.limits.*}): so many requests per window, as a token bucket (a full window's worth
 * may come at once, then they refill evenly). 0 switches a limit off. The client address is {@link ClientAddress}:
 * {@code X-Forwarded-For} counts only from the trusted proxies of {@code server.tomcat.remoteip.internal-proxies}
 * (by default loopback only).
 *
 * @param signupsPerAddress signups per client address within {@code signupWindow}
 * @param signupWindow the window of the signup limit
 * @param loginsPerAddress login attempts (password and second steps alike) per client address within {@code
 *     loginWindow}
 * @param loginWindow the window of the per-address login limit
 * @param loginsOverall login attempts from addresses that are not known (see {@code knownAddressTtl}) together within
 *     {@code overallLoginWindow}: each costs a password hash, so this keeps a distributed flood from starving the rest
 *     of the service, without locking anyone out of an address they used lately
 * @param overallLoginWindow the window of the overall login limit
 * @param knownAddressTtl how long an address from which someone signed up or logged in stays known
 * @param keyMissesPerAddress API-key lookups per client address within {@code keyMissWindow} that reach the database
 *     and find nothing (a well-formed key with a valid checksum that is not ours), per instance
 * @param keyMissWindow the window of the key-miss budget
 * @param passwordResets password reset requests within {@code passwordResetWindow} per email address, counted in the
 *     database
 * @param passwordResetsPerAddress password reset requests within {@code passwordResetWindow} per client address,
 *     counted in the database (known address or not); each instance also refuses a client's requests beyond this many
 *     in memory, before any other work, so that a flood from one client costs no query
 * @param passwordResetWindow the window of the password reset limits
 */
@ConfigurationProperties("kvportal.limits")
@Validated
public record LimitProperties(
        @DefaultValue("20") @Min(0) int signupsPerAddress,
        @DefaultValue("1h") @NotNull Duration signupWindow,
        @DefaultValue("30") @Min(0) int loginsPerAddress,
        @DefaultValue("1m") @NotNull Duration loginWindow,
        @DefaultValue("600") @Min(0) int loginsOverall,
        @DefaultValue("1m") @NotNull Duration overallLoginWindow,
        @DefaultValue("30d") @NotNull Duration knownAddressTtl,
        @DefaultValue("100") @Min(0) int keyMissesPerAddress,
        @DefaultValue("1m") @NotNull Duration keyMissWindow,
        @DefaultValue("5") @Min(1) int passwordResets,
        @DefaultValue("5") @Min(1) int passwordResetsPerAddress,
        @DefaultValue("1h") @NotNull Duration passwordResetWindow) {

    public LimitProperties {
        for (Duration window : new Duration[] {
            signupWindow, loginWindow, overallLoginWindow, knownAddressTtl, keyMissWindow, passwordResetWindow
        }) {
            if (window.isNegative() || window.toMillis() < 1000) {
                throw new IllegalArgumentException("kvportal.limits windows must be at least 1 s, got " + window);
            }
        }
    }
}
