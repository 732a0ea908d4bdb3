package com.kvportal.common.database;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Where the data lives and how long the service waits for it.
 *
 * @param url {@code DATABASE_URL}: a PostgreSQL server; empty runs the embedded one
 * @param embeddedDataDir the embedded PostgreSQL's data directory (locked while the service runs)
 * @param embeddedPort the embedded server's port on 127.0.0.1; 0 picks a free one at every start
 * @param poolSize connections per instance
 * @param connectionTimeout how long a request waits for a connection before answering 503
 *     {@code database_unavailable} (also the readiness probe's bound)
 * @param socketTimeout how long a statement may wait for the server's answer before the connection is dropped
 */
@ConfigurationProperties("kvportal.database")
@Validated
public record DatabaseProperties(
        @DefaultValue("") String url,
        @DefaultValue("./data/postgres") @NotNull Path embeddedDataDir,
        @DefaultValue("0") @Min(0) @Max(65535) int embeddedPort,
        @DefaultValue("10") @Min(1) @Max(1000) int poolSize,
        @DefaultValue("2s") @NotNull Duration connectionTimeout,
        @DefaultValue("10s") @NotNull Duration socketTimeout) {

    public DatabaseProperties {
        if (connectionTimeout.toMillis() < 250) {
            throw new IllegalArgumentException("kvportal.database.connection-timeout must be at least 250 ms");
        }
        if (socketTimeout.toSeconds() < 1) {
            throw new IllegalArgumentException("kvportal.database.socket-timeout must be at least 1 s");
        }
    }
}
