package com.kvportal.common.encryption;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.ServiceProcess;
import dev.samstevens.totp.code.DefaultCodeGenerator;
import dev.samstevens.totp.code.HashingAlgorithm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The service as a process on the embedded database without {@code KVPORTAL_ENCRYPTION_KEYS}: its first start makes
 * the key file beside the data directory (mode 0600, nothing of it inside the directory), and the next start reads
 * the same key, so a two-step login turned on before the restart still takes its codes after it.
 */
class EncryptionKeyFileIT {

    @Test
    void shouldMakeTheKeyFileAtTheFirstStartAndOpenTheSecretsWithItAfterARestart() throws IOException {
        Path dataDir = Files.createTempDirectory("kv-portal-key-file").resolve("postgres");
        Path keyFile = dataDir.resolveSibling("encryption.key");
        String email;
        String secret;
        String key;
        try (ServiceProcess service = ServiceProcess.start(dataDir, "--KVPORTAL_ENCRYPTION_KEYS=")) {
            assertThat(keyFile).exists();
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(keyFile)))
                    .isEqualTo("rw-------");
            key = Files.readString(keyFile);
            assertThat(service.output()).contains("Generated the encryption key " + keyFile);
            Api api = new Api(service.baseUrl());
            email = api.signup().email();
            api.verifyEmail();
            secret = api.post("/api/v1/account/totp", Map.of("current_password", Api.PASSWORD))
                    .json()
                    .get("secret")
                    .asString();
            Api.Response confirmed = api.post(
                    "/api/v1/account/totp/confirm",
                    Map.of("code", code(secret, System.currentTimeMillis() / 30_000 - 1)));
            assertThat(confirmed.status()).as(confirmed.toString()).isEqualTo(200);
            service.terminate(Duration.ofSeconds(60));
        }
        try (var files = Files.walk(dataDir)) {
            assertThat(files.filter(Files::isRegularFile)
                            .filter(file -> readable(file).contains(key.strip())))
                    .isEmpty();
        }

        try (ServiceProcess again = ServiceProcess.start(dataDir, "--KVPORTAL_ENCRYPTION_KEYS=")) {
            assertThat(Files.readString(keyFile)).isEqualTo(key);
            assertThat(again.output()).doesNotContain("Generated the encryption key");
            Api api = new Api(again.baseUrl());
            Api.Response password = api.post("/api/v1/auth/login", Map.of("email", email, "password", Api.PASSWORD));
            assertThat(password.json().get("mfa_required").asBoolean()).isTrue();
            Api.Response second = api.post(
                    "/api/v1/auth/login/totp", Map.of("code", code(secret, System.currentTimeMillis() / 30_000)));
            assertThat(second.status()).as(second.toString()).isEqualTo(200);
            again.terminate(Duration.ofSeconds(60));
        }
    }

    private static String readable(Path file) {
        try {
            return new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return "";
        }
    }

    private static String code(String secret, long step) {
        try {
            return new DefaultCodeGenerator(HashingAlgorithm.SHA1, 6).generate(secret, step);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
