package com.kvportal.common.database;

import com.kvportal.embedded.EmbeddedDataSource;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.flywaydb.core.api.callback.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.DependsOn;

/**
 * The database: the PostgreSQL named by {@code DATABASE_URL}, or, when it is unset, an embedded PostgreSQL whose
 * data lives in {@code ./data/postgres} and survives restarts (and crashes: see {@link EmbeddedDataSource}).
 *
 * <p>The pool fails fast: a request waits at most {@code connection-timeout} (2 s) for a connection, so that a
 * database that is away answers 503 {@code database_unavailable} quickly instead of hanging (see
 * {@link DatabaseFailures}).
 */
@Configuration(proxyBeanMethods = false)
class DatabaseConfiguration {

    private static final Logger log = LoggerFactory.getLogger(DatabaseConfiguration.class);

    /** The pool; with the embedded server, closing the pool stops the server afterwards ({@link EmbeddedDataSource}). */
    @Bean(destroyMethod = "close")
    // the encryption keys first: a start refused for want of them touches no database (and the embedded database's
    // first start finds its key file made)
    @DependsOn("secretBox")
    HikariDataSource dataSource(DatabaseProperties settings) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("kv-portal");
        config.setMaximumPoolSize(settings.poolSize());
        config.setConnectionTimeout(settings.connectionTimeout().toMillis());
        config.setValidationTimeout(Math.max(250, settings.connectionTimeout().toMillis() / 2));
        // pgjdbc's own bounds (seconds); parameters in DATABASE_URL take precedence over these
        long connectSeconds = Math.max(1, settings.connectionTimeout().toSeconds());
        config.addDataSourceProperty("connectTimeout", Long.toString(connectSeconds));
        config.addDataSourceProperty(
                "socketTimeout", Long.toString(settings.socketTimeout().toSeconds()));
        config.addDataSourceProperty("tcpKeepAlive", "true");
        if (settings.url().isBlank()) {
            log.info(
                    "DATABASE_URL is unset: starting the embedded PostgreSQL with its data in {}",
                    settings.embeddedDataDir().toAbsolutePath().normalize());
            return EmbeddedDataSource.start(
                    config, settings.embeddedDataDir(), settings.embeddedPort(), java.time.Duration.ofSeconds(120));
        }
        DatabaseUrl url = DatabaseUrl.parse(settings.url());
        config.setJdbcUrl(url.jdbcUrl());
        if (url.username() != null) {
            config.setUsername(url.username());
        }
        if (url.password() != null) {
            config.setPassword(url.password());
        }
        return new HikariDataSource(config);
    }

    /** Flyway (Spring Boot's, the product's) records the new checksums of migrations whose comments were reworded. */
    @Bean
    Callback rewordedMigrations() {
        return RewordedMigrations.product();
    }
}
