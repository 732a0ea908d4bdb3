package com.kvportal.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.KvPortalApplication;
import com.kvportal.common.PaymentProvider;
import com.kvportal.support.Concurrently;
import com.kvportal.support.TestDatabase;
import java.util.List;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The sandbox's own schema: product migration V200 moves a used sandbox's tables out of {@code public} with their
 * rows, or drops unused ones; the sandbox's own migration ({@link SandboxDatabase}) then makes or takes the schema.
 * Each test has a database of its own.
 */
@Tag("spring")
class SandboxSchemaTest {

    private static final String KEY = "sk_test_KeptBeforeTheUpgrade0123";

    private final String url = TestDatabase.freshDatabaseUrl();
    private final DataSource dataSource = new DriverManagerDataSource(url);
    private final JdbcClient jdbc = JdbcClient.create(dataSource);

    /** The product's migrations, up to {@code target} ({@code latest}: all). */
    private void product(String target) {
        Flyway.configure()
                .dataSource(dataSource)
                .locations("classpath:db/migration")
                .target(target)
                .load()
                .migrate();
    }

    private void sandbox() {
        SandboxDatabase.migrate(Flyway.configure().dataSource(dataSource));
    }

    /** {@code schema.table} of every table named {@code sandbox_...}, in any schema. */
    static List<String> sandboxTables(JdbcClient jdbc) {
        return jdbc.sql(
                        """
                        select table_schema || '.' || table_name from information_schema.tables
                        where table_name like 'sandbox\\_%' order by 1
                        """)
                .query(String.class)
                .list();
    }

    /** Columns, indexes and constraints of the schema {@code sandbox}, in words, to compare two databases. */
    private static List<String> shape(JdbcClient jdbc) {
        return jdbc.sql(
                        """
                        select table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' '
                               || coalesce(column_default, '')
                        from information_schema.columns where table_schema = 'sandbox' and table_name like 'sandbox\\_%'
                        union all
                        select indexdef from pg_indexes where schemaname = 'sandbox' and tablename like 'sandbox\\_%'
                        union all
                        select conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid)
                        from pg_constraint where connamespace = 'sandbox'::regnamespace
                        order by 1
                        """)
                .query(String.class)
                .list();
    }

    @Test
    void shouldMoveAUsedSandboxWithItsRowsWhenTheAppStartsAfterTheUpgrade() {
        usedBeforeTheUpgrade();
        jdbc.sql("insert into public.sandbox_customers (id, email, created) values ('cus_kept', 'kept@example.com', 1)")
                .update();
        jdbc.sql("insert into public.sandbox_events (id, type, payload) values ('evt_kept', 'customer.created', '{}')")
                .update();

        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(KvPortalApplication.class)
                .run(
                        "--server.port=0",
                        "--server.address=127.0.0.1",
                        "--DATABASE_URL=" + url,
                        "--kvportal.database.pool-size=3")) {
            // the sandbox's own key is the one it kept before the upgrade, now kept sealed
            assertThat(app.getBean(PaymentProvider.class).secretKey()).isEqualTo(KEY);
        }
        assertThat(jdbc.sql("select key from sandbox.sandbox_api_key")
                        .query(String.class)
                        .single())
                .startsWith("enc:")
                .doesNotContain(KEY);

        assertThat(sandboxTables(jdbc)).hasSize(16).allMatch(table -> table.startsWith("sandbox."));
        assertThat(jdbc.sql("select email from sandbox.sandbox_customers")
                        .query(String.class)
                        .list())
                .containsExactly("kept@example.com");
        assertThat(count("select count(*) from sandbox.sandbox_prices"))
                .as("pro and team")
                .isEqualTo(2);
        // the moved outbox's sequence moved with it
        jdbc.sql("insert into sandbox.sandbox_events (id, type, payload) values ('evt_new', 'customer.updated', '{}')")
                .update();
        assertThat(jdbc.sql("select id from sandbox.sandbox_events order by seq")
                        .query(String.class)
                        .list())
                .containsExactly("evt_kept", "evt_new");
    }

    @Test
    void shouldMoveASandboxUsedWithAConfiguredKey() {
        product("190");
        jdbc.sql("insert into public.sandbox_customers (id, created) values ('cus_kept', 1)")
                .update();

        product("latest");
        sandbox();

        assertThat(sandboxTables(jdbc)).hasSize(16).allMatch(table -> table.startsWith("sandbox."));
        assertThat(jdbc.sql("select id from sandbox.sandbox_customers")
                        .query(String.class)
                        .list())
                .containsExactly("cus_kept");
    }

    @Test
    void shouldDropAnUnusedSandboxAndLeaveNoTableOfItAnywhere() {
        product("190");
        assertThat(sandboxTables(jdbc)).hasSize(12).allMatch(table -> table.startsWith("public."));

        product("latest");

        assertThat(sandboxTables(jdbc)).isEmpty();
        assertThat(count("select count(*) from pg_namespace where nspname = 'sandbox'"))
                .isZero();
    }

    @Test
    void shouldStartASchemaThatAppliedV1BeforeItsCommentsWereReworded() {
        product("latest");
        sandbox();
        var rewording = SandboxDatabase.REWORDED.rewordings().get(0);
        String checksum = "select checksum from sandbox.flyway_schema_history where version = '1'";
        assertThat(jdbc.sql(checksum).query(Integer.class).single()).isEqualTo(rewording.to());
        jdbc.sql("update sandbox.flyway_schema_history set checksum = ? where version = '1'")
                .param(rewording.from())
                .update();

        sandbox();

        assertThat(jdbc.sql(checksum).query(Integer.class).single()).isEqualTo(rewording.to());
    }

    @Test
    void shouldMakeTheSchemaThatAMoveLeaves() {
        usedBeforeTheUpgrade();
        product("latest");
        sandbox();

        SandboxSchemaTest fresh = new SandboxSchemaTest();
        fresh.product("latest");
        fresh.sandbox();

        assertThat(shape(fresh.jdbc)).isNotEmpty().isEqualTo(shape(jdbc));
    }

    /** Instances starting at once on one database, after an upgrade that moved the tables, or on a fresh one. */
    @ParameterizedTest(name = "upgraded: {0}")
    @ValueSource(booleans = {true, false})
    void shouldMigrateOnceWhenInstancesStartTogether(boolean upgraded) throws Exception {
        if (upgraded) {
            usedBeforeTheUpgrade();
        }
        product("latest");

        Concurrently.run(4, () -> {
            sandbox();
            return true;
        });

        assertThat(sandboxTables(jdbc)).hasSize(16).allMatch(table -> table.startsWith("sandbox."));
        assertThat(count("select count(*) from sandbox.flyway_schema_history where success and version = '1'"))
                .isEqualTo(1);
        assertThat(count("select count(*) from sandbox.sandbox_prices"))
                .as("pro and team")
                .isEqualTo(2);
    }

    /** At version 190, with the key a sandbox kept at its first start. */
    private void usedBeforeTheUpgrade() {
        product("190");
        jdbc.sql("insert into public.sandbox_api_key (key) values (?)")
                .param(KEY)
                .update();
    }

    private long count(String sql) {
        return jdbc.sql(sql).query(Long.class).single();
    }
}
