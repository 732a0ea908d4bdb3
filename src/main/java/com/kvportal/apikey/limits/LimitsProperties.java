package com.kvportal.apikey.limits;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How an instance leases rate-limit budgets and sets credits aside ({@code kvportal.api-keys.limits.*}).
 *
 * @param minChunk the least an instance leases or sets aside at once (so that a key verified 1,000 times costs
 *     fewer than 50 transactions)
 * @param chunkTraffic a chunk covers this much of the instance's recent traffic of the key (when more than minChunk)
 * @param windowShare a rate-limit chunk is at most this share of the limit (the rest stays for other instances)
 * @param giveBackAfter credits set aside and unused go back to the key this long after the instance's last verify
 * @param sweep how often idle credits are given back
 */
@ConfigurationProperties("kvportal.api-keys.limits")
public record LimitsProperties(
        @DefaultValue("25") long minChunk,
        @DefaultValue("500ms") Duration chunkTraffic,
        @DefaultValue("0.25") double windowShare,
        @DefaultValue("2s") Duration giveBackAfter,
        @DefaultValue("250ms") Duration sweep) {}
