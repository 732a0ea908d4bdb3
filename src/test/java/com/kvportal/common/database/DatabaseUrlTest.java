package com.kvportal.common.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DatabaseUrlTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            nullValues = "null",
            textBlock =
                    """
            # what it shows                                | DATABASE_URL                                                   | JDBC URL                                                         | user    | password
            takes a JDBC URL as it is                      | jdbc:postgresql://db.internal:5433/portal?user=u&password=p    | jdbc:postgresql://db.internal:5433/portal?user=u&password=p      | null    | null
            translates the postgres form                   | postgres://portal:s3cret@db.example.com:5432/kv                | jdbc:postgresql://db.example.com:5432/kv                         | portal  | s3cret
            translates the postgresql form                 | postgresql://portal:s3cret@db.example.com:6543/kv              | jdbc:postgresql://db.example.com:6543/kv                         | portal  | s3cret
            decodes a percent-encoded user and password    | postgres://us%40er:p%40ss%3Aw%2Fo%25rd%23@host/db              | jdbc:postgresql://host/db                                        | us@er   | p@ss:w/o%rd#
            # userinfo is percent-encoded, not form-encoded: '+' is a plus, not a space
            keeps a plus in the password as a plus         | postgres://user:pa+ss%2Bword@host/db                           | jdbc:postgresql://host/db                                        | user    | pa+ss+word
            leaves the port out when the URL has none      | postgres://user:pass@db.example.com/kv                         | jdbc:postgresql://db.example.com/kv                              | user    | pass
            keeps the query parameters                     | postgres://user:pass@host:5432/kv?sslmode=require&application_name=kv | jdbc:postgresql://host:5432/kv?sslmode=require&application_name=kv | user | pass
            accepts a URL without credentials              | '  postgres://localhost/kv  '                                  | jdbc:postgresql://localhost/kv                                   | null    | null
            accepts a user without password                | postgres://portal@localhost:5432/kv                            | jdbc:postgresql://localhost:5432/kv                              | portal  | null
            """)
    void shouldTranslateWhatTheEnvironmentGivesIntoAJdbcUrlAndCredentials(
            String what, String given, String jdbcUrl, @Nullable String username, @Nullable String password) {
        DatabaseUrl url = DatabaseUrl.parse(given);

        assertThat(url.jdbcUrl()).isEqualTo(jdbcUrl);
        assertThat(url.username()).isEqualTo(username);
        assertThat(url.password()).isEqualTo(password);
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
