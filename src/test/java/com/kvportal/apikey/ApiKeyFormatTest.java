package com.kvportal.apikey;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ApiKeyFormatTest {

    /** Vectors computed independently (Python's zlib.crc32 and a base62 of 0-9A-Za-z). */
    @ParameterizedTest
    @CsvSource({
        "kv_AAAAAAAAAAAAAAAAAAAAAAAAAA, 36zwQ7",
        "kv_00000000000000000000000000, 24EwLe",
        "kv_abcdefghijklmnopqrstuvwxyz, 4IVQe9"
    })
    void shouldComputeTheDocumentedChecksum(String unchecked, String checksum) {
        assertThat(ApiKeyFormat.checksum(unchecked)).isEqualTo(checksum);
        assertThat(ApiKeyFormat.isWellFormed(unchecked + checksum)).isTrue();
    }

    @Test
    void shouldGenerateWellFormedDistinctKeys() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            String key = ApiKeyFormat.generate().value();
            assertThat(key).matches("kv_[0-9A-Za-z]{32}");
            assertThat(ApiKeyFormat.isWellFormed(key)).isTrue();
            seen.add(key);
        }
        assertThat(seen).hasSize(10_000);
    }

    @Test
    void shouldRejectAKeyWithOneCharacterChanged() {
        String key = ApiKeyFormat.generate().value();
        for (int i = 3; i < key.length(); i++) {
            char replacement = key.charAt(i) == 'x' ? 'y' : 'x';
            String tampered = key.substring(0, i) + replacement + key.substring(i + 1);
            assertThat(ApiKeyFormat.isWellFormed(tampered)).as(tampered).isFalse();
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "kv_",
                "kv_AAAAAAAAAAAAAAAAAAAAAAAAAA36zwQ",
                "kv_AAAAAAAAAAAAAAAAAAAAAAAAAA36zwQ7x",
                "KV_AAAAAAAAAAAAAAAAAAAAAAAAAA36zwQ7",
                "xx_AAAAAAAAAAAAAAAAAAAAAAAAAA36zwQ7",
                "kv_AAAAAAAAAAAAAAAAAAAAAAAAA-36zwQ7",
                "kv_AAAAAAAAAAAAAAAAAAAAAAAAAA36zw Q",
                "kv_ÄAAAAAAAAAAAAAAAAAAAAAAAAA36zwQ7"
            })
    void shouldRejectMalformedKeys(String candidate) {
        assertThat(ApiKeyFormat.isWellFormed(candidate)).isFalse();
    }

    @Test
    void shouldNeverShowTheRawKeyInToString() {
        RawKey key = ApiKeyFormat.generate();
        assertThat(key.toString()).doesNotContain(key.value().substring(3));
        assertThat(key.digest().toString()).hasSizeLessThan(30);
    }
}
