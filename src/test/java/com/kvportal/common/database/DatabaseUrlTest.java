package com.kvportal.common.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DatabaseUrlTest {

    @Test
    void shouldTakeAJdbcUrlAsItIs() {
        DatabaseUrl url = DatabaseUrl.parse("jdbc:postgresql://db.internal:5433/portal?user=u&password=p");

        assertThat(url.jdbcUrl()).isEqualTo("jdbc:postgresql://db.internal:5433/portal?user=u&password=p");
        assertThat(url.username()).isNull();
        assertThat(url.password()).isNull();
    }

    @Test
    void shouldTranslateThePostgresForm() {
        DatabaseUrl url = DatabaseUrl.parse("postgres://portal:s3cret@db.example.com:5432/kv");

        assertThat(url.jdbcUrl()).isEqualTo("jdbc:postgresql://db.example.com:5432/kv");
        assertThat(url.username()).isEqualTo("portal");
        assertThat(url.password()).isEqualTo("s3cret");
    }

    @Test
    void shouldTranslateThePostgresqlForm() {
        DatabaseUrl url = DatabaseUrl.parse("postgresql://portal:s3cret@db.example.com:6543/kv");

        assertThat(url.jdbcUrl()).isEqualTo("jdbc:postgresql://db.example.com:6543/kv");
        assertThat(url.username()).isEqualTo("portal");
        assertThat(url.password()).isEqualTo("s3cret");
    }

    @Test
    void shouldDecodeAPercentEncodedUserAndPassword() {
        DatabaseUrl url = DatabaseUrl.parse("postgres://us%40er:p%40ss%3Aw%2Fo%25rd%23@host/db");

        assertThat(url.username()).isEqualTo("us@er");
        assertThat(url.password()).isEqualTo("p@ss:w/o%rd#");
    }

    @Test
    void shouldKeepAPlusInThePasswordAsAPlus() {
        // userinfo is percent-encoded, not form-encoded: '+' is a plus, not a space
        DatabaseUrl url = DatabaseUrl.parse("postgres://user:pa+ss%2Bword@host/db");

        assertThat(url.password()).isEqualTo("pa+ss+word");
    }

    @Test
    void shouldLeaveThePortOutWhenTheUrlHasNone() {
        DatabaseUrl url = DatabaseUrl.parse("postgres://user:pass@db.example.com/kv");

        assertThat(url.jdbcUrl()).isEqualTo("jdbc:postgresql://db.example.com/kv");
    }

    @Test
    void shouldKeepTheQueryParameters() {
        DatabaseUrl url = DatabaseUrl.parse("postgres://user:pass@host:5432/kv?sslmode=require&application_name=kv");

        assertThat(url.jdbcUrl()).isEqualTo("jdbc:postgresql://host:5432/kv?sslmode=require&application_name=kv");
    }

    @Test
    void shouldAcceptAUrlWithoutCredentials() {
        DatabaseUrl url = DatabaseUrl.parse("  postgres://localhost/kv  ");

        assertThat(url.jdbcUrl()).isEqualTo("jdbc:postgresql://localhost/kv");
        assertThat(url.username()).isNull();
        assertThat(url.password()).isNull();
    }

    @Test
    void shouldAcceptAUserWithoutPassword() {
        DatabaseUrl url = DatabaseUrl.parse("postgres://portal@localhost:5432/kv");

        assertThat(url.username()).isEqualTo("portal");
        assertThat(url.password()).isNull();
    }

    @Test
    void shouldRefuseAnotherScheme() {
        for (String value :
                new String[] {"mysql://user:pass@host/db", "jdbc:mysql://host/db", "http://host/db", "host:5432/db", ""
                }) {
            assertThatThrownBy(() -> DatabaseUrl.parse(value))
                    .as(value)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("DATABASE_URL")
                    .hasMessageContaining("postgres://");
        }
    }

    @Test
    void shouldRefuseAUrlWithoutHost() {
        assertThatThrownBy(() -> DatabaseUrl.parse("postgres:///kv"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("DATABASE_URL");
    }

    @Test
    void shouldNeverRepeatThePasswordInAnError() {
        for (String value : new String[] {
            "postgres://user:top secret@host/db", "postgres://user:top^secret@/db", "postgres://user:%zzsecret@host/db"
        }) {
            assertThatThrownBy(() -> DatabaseUrl.parse(value))
                    .as(value)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("DATABASE_URL")
                    .hasMessageNotContaining("secret")
                    .satisfies(e -> assertThat(String.valueOf(e.getCause())).doesNotContain("secret"));
        }
    }
}
