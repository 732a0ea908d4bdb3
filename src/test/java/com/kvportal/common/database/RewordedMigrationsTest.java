package com.kvportal.common.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.kvportal.common.database.RewordedMigrations.Rewording;
import com.kvportal.support.TestDatabase;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * A database that applied a migration before its comments were reworded starts on the new text; one whose migration
 * changed in any other way is still refused. On a real PostgreSQL, with Flyway as the service runs it.
 */
class RewordedMigrationsTest {

    private final DataSource dataSource = new DriverManagerDataSource(TestDatabase.freshDatabaseUrl());
    private final JdbcClient jdbc = JdbcClient.create(dataSource);

    private FluentConfiguration flyway() {
        return Flyway.configure().dataSource(dataSource).locations("classpath:db/migration");
    }

    private Integer checksum(String version) {
        return jdbc.sql("select checksum from flyway_schema_history where version = ?")
                .param(version)
                .query(Integer.class)
                .single();
    }

    private void recordChecksum(String version, int checksum) {
        jdbc.sql("update flyway_schema_history set checksum = ? where version = ?")
                .params(checksum, version)
                .update();
    }

    /** Also: on an empty database (no history yet) the rewordings do nothing and the migrations run. */
    @Test
    void shouldPinEveryRewordingsNewChecksumToItsFile() {
        flyway().callbacks(RewordedMigrations.product()).load().migrate();

        for (Rewording rewording : RewordedMigrations.product().rewordings()) {
            assertThat(checksum(rewording.version()))
                    .as("V%s's checksum", rewording.version())
                    .isEqualTo(rewording.to());
        }
    }

    @Test
    void shouldStartADatabaseThatAppliedTheOldTextsAndRecordTheNewChecksums() {
        flyway().load().migrate();
        for (Rewording rewording : RewordedMigrations.product().rewordings()) {
            recordChecksum(rewording.version(), rewording.from());
        }
        assertThatThrownBy(() -> flyway().load().validate())
                .as("without the rewordings, Flyway refuses the old checksums")
                .isInstanceOf(FlywayException.class);

        flyway().callbacks(RewordedMigrations.product()).load().migrate();

        for (Rewording rewording : RewordedMigrations.product().rewordings()) {
            assertThat(checksum(rewording.version())).isEqualTo(rewording.to());
        }
        flyway().load().validate();
    }

    @Test
    void shouldStillRefuseAMigrationChangedInAnyOtherWay() {
        flyway().load().migrate();
        recordChecksum("180", 12345);

        assertThatThrownBy(() ->
                        flyway().callbacks(RewordedMigrations.product()).load().migrate())
                .isInstanceOf(FlywayException.class)
                .hasMessageContaining("180");
        assertThat(checksum("180")).isEqualTo(12345);
    }
}
