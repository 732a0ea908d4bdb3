package com.kvportal.apikey.cache;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import javax.sql.DataSource;
import org.springframework.stereotype.Component;

/**
 * Connections of their own, outside the pool, to the pool's database: the lease must be renewed and the
 * invalidations heard even when every pooled connection is busy. Each carries an {@code application_name}
 * ({@code kv-portal key-cache <role> <instance>}) so that an operator can find it in {@code pg_stat_activity}.
 */
@Component
class DedicatedConnections {

    private final HikariDataSource pool;

    DedicatedConnections(DataSource dataSource) throws SQLException {
        this.pool = dataSource.unwrap(HikariDataSource.class);
    }

    Connection open(String role, Object instanceId) throws SQLException {
        Properties properties = new Properties();
        properties.putAll(pool.getDataSourceProperties());
        if (pool.getUsername() != null) {
            properties.setProperty("user", pool.getUsername());
        }
        if (pool.getPassword() != null) {
            properties.setProperty("password", pool.getPassword());
        }
        properties.setProperty("ApplicationName", "kv-portal key-cache " + role + " " + instanceId);
        properties.setProperty("tcpKeepAlive", "true");
        // a database that stops answering must not hang the lease or the listener forever
        properties.setProperty("socketTimeout", "10");
        properties.setProperty("connectTimeout", "5");
        Connection connection = DriverManager.getConnection(pool.getJdbcUrl(), properties);
        connection.setAutoCommit(true);
        return connection;
    }
}
