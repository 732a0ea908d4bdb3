package com.kvportal.common.database;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The advisory locks that make work of one organization run one at a time across instances ({@link AdvisoryLocks}).
 *
 * @param connections the connections outside the pool that hold them, per instance: as many locks are held at once
 * @param lockWait how long work waits for its lock (or for a connection to hold it) before it gives up
 */
@ConfigurationProperties("kvportal.database.advisory-locks")
@Validated
public record AdvisoryLockProperties(
        @DefaultValue("4") @Min(1) @Max(64) int connections,
        @DefaultValue("30s") @NotNull @DurationMin(millis = 100) Duration lockWait) {}
