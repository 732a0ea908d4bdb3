package com.kvportal.common.encryption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Where the keys come from: {@code KVPORTAL_ENCRYPTION_KEYS} (base64 keys of 32 bytes, comma-separated), else the
 * key file beside the embedded database, made once with mode 0600 and read at every later start; with
 * {@code DATABASE_URL} and no keys, or with a malformed key, the start is refused with a one-line reason.
 */
class EncryptionKeysTest {

    @TempDir
    Path dir;

    @Test
    void shouldTakeTheConfiguredKeysInOrder() {
        byte[] a = SecretBoxTest.key();
        byte[] b = SecretBoxTest.key();

        List<byte[]> keys = EncryptionKeys.resolve(base64(b) + ", " + base64(a), dir.resolve("postgres"));

        assertThat(keys).containsExactly(b, a);
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void shouldCreateTheKeyFileBesideTheEmbeddedDatabaseWithMode0600AndReuseIt() throws IOException {
        Path dataDir = dir.resolve("data").resolve("postgres");

        List<byte[]> first = EncryptionKeys.resolve("", dataDir);

        Path file = dir.resolve("data").resolve("encryption.key");
        assertThat(file).exists();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        assertThat(first).singleElement().satisfies(key -> assertThat(key).hasSize(32));
        assertThat(Files.readString(file)).contains(base64(first.get(0)));
        // the data directory itself holds nothing of it, and no partial file is left
        assertThat(Files.list(file.getParent()).map(p -> p.getFileName().toString()))
                .containsExactly("encryption.key");

        List<byte[]> again = EncryptionKeys.resolve("", dataDir);

        assertThat(again).singleElement().isEqualTo(first.get(0));
    }

    @Test
    void shouldRefuseDatabaseUrlWithoutKeysAndSayHowToMakeOne() {
        assertThatThrownBy(() -> EncryptionKeys.resolve(" ", null))
                .isInstanceOf(EncryptionRefused.class)
                .hasMessageContaining("DATABASE_URL is set but KVPORTAL_ENCRYPTION_KEYS is not")
                .hasMessageContaining("openssl rand -base64 32");
        assertThat(analysis(() -> EncryptionKeys.resolve("", null)).getDescription())
                .doesNotContain("\n")
                .contains("KVPORTAL_ENCRYPTION_KEYS");
    }

    @Test
    void shouldRefuseAKeyThatIsNotBase64OrNot32BytesLongWithoutShowingIt() {
        String good = base64(SecretBoxTest.key());
        String short16 = Base64.getEncoder().encodeToString(new byte[16]);

        assertThatThrownBy(() -> EncryptionKeys.resolve(good + ",not*base64!", null))
                .isInstanceOf(EncryptionRefused.class)
                .hasMessageStartingWith("Key 2 of 2 in KVPORTAL_ENCRYPTION_KEYS is not base64.")
                .hasMessageNotContaining("not*base64!");
        assertThatThrownBy(() -> EncryptionKeys.resolve(short16, null))
                .isInstanceOf(EncryptionRefused.class)
                .hasMessageStartingWith("The key in KVPORTAL_ENCRYPTION_KEYS is 16 bytes long, not 32.")
                .hasMessageContaining("openssl rand -base64 32")
                .hasMessageNotContaining(short16);
        assertThatThrownBy(() -> EncryptionKeys.resolve(good + "," + good, null))
                .isInstanceOf(EncryptionRefused.class)
                .hasMessageContaining("repeats an earlier one");
        assertThatThrownBy(() -> EncryptionKeys.resolve(" , ", null))
                .isInstanceOf(EncryptionRefused.class)
                .hasMessageContaining("holds no key");
    }

    private static FailureAnalysis analysis(Runnable start) {
        try {
            start.run();
        } catch (EncryptionRefused e) {
            return new EncryptionRefused.Analyzer().analyze(e);
        }
        throw new AssertionError("the start was not refused");
    }

    private static String base64(byte[] key) {
        return Base64.getEncoder().encodeToString(key);
    }
}
