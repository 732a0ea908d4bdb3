package com.kvportal.support;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One real PostgreSQL for the whole test run (the embedded one, in a throw-away directory), and a fresh
 * database in it for every Spring context, so that test classes never see each other's rows.
 */
public final class TestDatabase {

    private static final AtomicInteger COUNTER = new AtomicInteger();
    private static EmbeddedPostgres postgres;

    private TestDatabase() {}

    public static synchronized EmbeddedPostgres server() {
        if (postgres == null) {
            try {
                postgres = EmbeddedPostgres.builder()
                        .setDataDirectory(Files.createTempDirectory("kv-portal-test-pg"))
                        .setCleanDataDirectory(true)
                        .setServerConfig("fsync", "off")
                        .setServerConfig("synchronous_commit", "off")
                        .setServerConfig("full_page_writes", "off")
                        .setServerConfig("max_connections", "300")
                        .start();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return postgres;
    }

    /** Creates an empty database and answers its JDBC URL (user and password included). */
    public static String freshDatabaseUrl() {
        String name = "kv_test_" + ProcessHandle.current().pid() + "_" + COUNTER.incrementAndGet();
        try (Connection connection = server().getPostgresDatabase().getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("create database " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not create test database " + name, e);
        }
        return server().getJdbcUrl("postgres", name);
    }
}
