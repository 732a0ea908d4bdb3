package com.kvportal.sandbox;

import com.kvportal.common.database.RewordedMigrations;
import com.kvportal.common.database.RewordedMigrations.Rewording;
import java.util.List;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The sandbox's tables, in a schema of their own ({@value #SCHEMA}), and the one way its beans reach them: made only
 * once they are migrated, so no sandbox bean touches a table before. The sandbox migrates the schema itself with
 * Flyway ({@code classpath:db/sandbox}, history in the schema), after the product's migrations (which move a
 * developer's sandbox tables from {@code public} here, V200) and after {@link SandboxExposure}'s check: a refused
 * start makes no schema. Several instances starting at once on one database wait for each other on Flyway's lock.
 * Its Flyway is no bean: Spring Boot's own (the product's) backs off where a {@code Flyway} bean exists.
 *
 * <p>Its SQL names every table with its schema ({@code sandbox.sandbox_customers}).
 */
@Component
@DependsOnDatabaseInitialization
public class SandboxDatabase {

    static final String SCHEMA = "sandbox";

    /** Migrations of {@code db/sandbox} whose comments were reworded after they ran. */
    static final RewordedMigrations REWORDED =
            new RewordedMigrations(List.of(new Rewording("1", -1726821128, 580103568)));

    private final JdbcClient jdbc;

    SandboxDatabase(SandboxExposure exposure, DataSource dataSource, JdbcClient jdbc) {
        migrate(Flyway.configure().dataSource(dataSource));
        this.jdbc = jdbc;
    }

    /**
     * Brings the schema to the sandbox's latest version. A schema that V200 filled has no history yet: it is taken
     * as version 0, so that V1 (idempotent) still runs over it.
     */
    static void migrate(FluentConfiguration flyway) {
        flyway.locations("classpath:db/sandbox")
                .schemas(SCHEMA)
                .baselineOnMigrate(true)
                .baselineVersion("0")
                .callbacks(REWORDED)
                .load()
                .migrate();
    }

    /** A statement on the sandbox's tables, as {@link JdbcClient#sql} makes one. */
    public JdbcClient.StatementSpec sql(String sql) {
        return jdbc.sql(sql);
    }
}
