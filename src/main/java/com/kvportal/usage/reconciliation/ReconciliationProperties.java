package com.kvportal.usage.reconciliation;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the daily reconciliation of billed periods with the provider's invoice items.
 *
 * @param window the daily run compares the periods that started within this long before now (two monthly periods)
 * @param checkInterval how often each instance looks whether today's run is done
 * @param initialDelay the first look after start-up
 */
@ConfigurationProperties("kvportal.reconciliation")
public record ReconciliationProperties(
        @DefaultValue("62d") Duration window,
        @DefaultValue("1h") Duration checkInterval,
        @DefaultValue("5m") Duration initialDelay) {}
