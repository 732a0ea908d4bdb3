package com.kvportal.common.database;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The database: the PostgreSQL named by {@code DATABASE_URL}, or, when it is unset, an embedded
 * PostgreSQL whose data lives in {@code ./data/postgres} and survives restarts.
 */
@Configuration(proxyBeanMethods = false)
class DatabaseConfiguration {

    private static final Logger log = LoggerFactory.getLogger(DatabaseConfiguration.class);

    @Bean(destroyMethod = "close")
    HikariDataSource dataSource(
            @Value("${DATABASE_URL:}") String databaseUrl,
            @Value("${kvportal.database.embedded-data-dir:./data/postgres}") String dataDir,
            @Value("${kvportal.database.pool-size:10}") int poolSize) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("kv-portal");
        config.setMaximumPoolSize(poolSize);
        if (databaseUrl.isBlank()) {
            EmbeddedPostgres postgres = startEmbedded(Path.of(dataDir));
            config.setJdbcUrl(postgres.getJdbcUrl("postgres", "postgres"));
            return new EmbeddedBackedDataSource(config, postgres);
        }
        DatabaseUrl url = DatabaseUrl.parse(databaseUrl);
        config.setJdbcUrl(url.jdbcUrl());
        if (url.username() != null) {
            config.setUsername(url.username());
        }
        if (url.password() != null) {
            config.setPassword(url.password());
        }
        return new HikariDataSource(config);
    }

    private static EmbeddedPostgres startEmbedded(Path dataDir) {
        try {
            Files.createDirectories(dataDir);
            log.info(
                    "DATABASE_URL is unset: starting the embedded PostgreSQL with its data in {}",
                    dataDir.toAbsolutePath());
            return EmbeddedPostgres.builder()
                    .setDataDirectory(dataDir)
                    .setCleanDataDirectory(false)
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start the embedded PostgreSQL in " + dataDir.toAbsolutePath(), e);
        }
    }

    /** A pool that stops its embedded server when it closes. */
    static final class EmbeddedBackedDataSource extends HikariDataSource {
        private final EmbeddedPostgres postgres;

        EmbeddedBackedDataSource(HikariConfig config, EmbeddedPostgres postgres) {
            super(config);
            this.postgres = postgres;
        }

        @Override
        public void close() {
            super.close();
            try {
                postgres.close();
            } catch (IOException e) {
                log.warn("The embedded PostgreSQL did not stop cleanly", e);
            }
        }
    }
}
