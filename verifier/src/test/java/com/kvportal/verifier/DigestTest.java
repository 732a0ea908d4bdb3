package com.kvportal.verifier;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.junit.jupiter.api.Test;

class DigestTest {

    private static Digest reference(String rawKey) throws Exception {
        ByteBuffer sha256 = ByteBuffer.wrap(
                MessageDigest.getInstance("SHA-256").digest(rawKey.getBytes(StandardCharsets.US_ASCII)));
        return new Digest(sha256.getLong(), sha256.getLong(), sha256.getLong(), sha256.getLong());
    }

    @Test
    void isTheSha256OfTheKeysAsciiBytesAsTheServiceComputesIt() throws Exception {
        for (String key : new String[] {
            "kv_3hT0bq8ZkE1mN4pR7sV2xY5aC9dF0gHj", "", "x".repeat(200), "kv_é€😀", "kv_3hT0bq8ZkE1mN4pR7sV2xY5aC9dF0gHj"
        }) {
            assertThat(Digest.of(key)).as(key).isEqualTo(reference(key));
        }
    }

    @Test
    void differentKeysHaveDifferentDigests() {
        assertThat(Digest.of("kv_3hT0bq8ZkE1mN4pR7sV2xY5aC9dF0gHj"))
                .isNotEqualTo(Digest.of("kv_3hT0bq8ZkE1mN4pR7sV2xY5aC9dF0gHk"));
    }
}
