package com.kvportal.common.database;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import javax.sql.DataSource;
import org.springframework.stereotype.Component;

/**
 * Connections of their own, outside the pool, to the pool's database: for work that must go on even when every pooled
 * connection is busy (the key cache's lease and invalidations), or that holds a connection while requests of this very
 * service use the pool ({@link AdvisoryLocks}). Each carries an {@code application_name} so that an operator can find
 * it in {@code pg_stat_activity}.
 */
@Component
public class DedicatedConnections {

    private final HikariDataSource pool;

    DedicatedConnections(DataSource dataSource) throws SQLException {
        this.pool = dataSource.unwrap(HikariDataSource.class);
    }

    /** A new connection in auto-commit, named {@code applicationName}; the caller closes it. */
    public Connection open(String applicationName) throws SQLException {
        Properties properties = new Properties();
        properties.putAll(pool.getDataSourceProperties());
        if (pool.getUsername() != null) {
            properties.setProperty("user", pool.getUsername());
        }
        if (pool.getPassword() != null) {
            properties.setProperty("password", pool.getPassword());
        }
        properties.setProperty("ApplicationName", applicationName);
        properties.setProperty("tcpKeepAlive", "true");
        // a database that stops answering must not hang whoever uses the connection forever
        properties.setProperty("socketTimeout", "10");
        properties.setProperty("connectTimeout", "5");
        Connection connection = DriverManager.getConnection(pool.getJdbcUrl(), properties);
        connection.setAutoCommit(true);
        return connection;
    }
}
