package com.kvportal.common;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.common.database.DatabaseProperties;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalTokensTest {

    @TempDir
    Path dir;

    private LocalTokens start(String databaseUrl, String baseUrl) {
        return new LocalTokens(
                new DatabaseProperties(
                        databaseUrl, dir.resolve("postgres"), 0, 4, Duration.ofSeconds(2), Duration.ofSeconds(10)),
                new AppBaseUrl(new AppProperties(baseUrl, "localhost", 8080)));
    }

    private Path file() {
        return dir.resolve(LocalTokens.FILE_NAME);
    }

    @Test
    void aBareStartGeneratesTheUnsetTokensIntoAnOwnerOnlyFileAShellCanSource() throws IOException {
        LocalTokens tokens = start("", "");
        String usage = tokens.orGenerated(LocalTokens.USAGE_API_TOKEN, "");
        String metrics = tokens.orGenerated(LocalTokens.METRICS_TOKEN, "");
        tokens.publish(LocalTokens.SANDBOX_KEY, "sk_test_0123456789abcdefABCDEF");

        assertThat(usage).matches("local_[A-Za-z0-9]{32}").isNotEqualTo(metrics);
        assertThat(Files.readAllLines(file()))
                .contains("USAGE_API_TOKEN=" + usage, "METRICS_TOKEN=" + metrics, "SK=sk_test_0123456789abcdefABCDEF");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file())))
                .isEqualTo("rw-------");

        // the next start keeps them
        LocalTokens again = start("", "http://127.0.0.1:8080");
        assertThat(again.orGenerated(LocalTokens.USAGE_API_TOKEN, "")).isEqualTo(usage);
        assertThat(again.orGenerated(LocalTokens.METRICS_TOKEN, "")).isEqualTo(metrics);
    }

    @Test
    void aConfiguredTokenIsUsedAsSetAndNeverWrittenAndTheLocalOneIsDropped() throws IOException {
        start("", "").orGenerated(LocalTokens.USAGE_API_TOKEN, "");

        LocalTokens configured = start("", "");
        assertThat(configured.orGenerated(LocalTokens.USAGE_API_TOKEN, "set-by-hand"))
                .isEqualTo("set-by-hand");
        assertThat(Files.readString(file())).doesNotContain("USAGE_API_TOKEN").doesNotContain("set-by-hand");
    }

    @Test
    void withAServerDatabaseOrAPublicAddressNothingIsGeneratedOrWritten() {
        LocalTokens server = start("jdbc:postgresql://db:5432/kvportal", "");
        assertThat(server.orGenerated(LocalTokens.USAGE_API_TOKEN, "")).isEmpty();
        LocalTokens pub = start("", "https://portal.example.com");
        assertThat(pub.orGenerated(LocalTokens.METRICS_TOKEN, "")).isEmpty();
        pub.publish(LocalTokens.SANDBOX_KEY, "sk_test_0123456789abcdefABCDEF");

        assertThat(server.file()).isEmpty();
        assertThat(file()).doesNotExist();
    }
}
