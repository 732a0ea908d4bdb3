package com.kvportal.embedded;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A pool on the embedded PostgreSQL ({@link EmbeddedServer}), which it started; closing the pool stops the server
 * afterwards, so that the last writes of a graceful shutdown (e.g. {@code last_used_at}) still reach it.
 */
public final class EmbeddedDataSource extends HikariDataSource {

    private final EmbeddedServer server;

    private EmbeddedDataSource(HikariConfig config, EmbeddedServer server) {
        super(config);
        this.server = server;
    }

    /**
     * Starts the server on {@code dataDir} (at {@code port}, 0 for any free one) and a pool of {@code config} on it,
     * connected as the service's own role.
     */
    public static EmbeddedDataSource start(HikariConfig config, Path dataDir, int port, Duration startTimeout) {
        EmbeddedServer server = EmbeddedServer.start(dataDir, port, startTimeout);
        config.setJdbcUrl(server.jdbcUrl());
        config.setUsername(server.username());
        config.setPassword(server.password());
        try {
            return new EmbeddedDataSource(config, server);
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    @Override
    public void close() {
        try {
            super.close();
        } finally {
            server.close();
        }
    }
}
