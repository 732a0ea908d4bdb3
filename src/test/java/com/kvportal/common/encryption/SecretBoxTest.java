package com.kvportal.common.encryption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Sealing and opening secrets at rest: a sealed value is not the secret, opens only for its purpose and row, and a
 * rotation (a new key in front) opens what the old key sealed, seals anew under the new one, and names the key that
 * is missing once the old one is dropped.
 */
class SecretBoxTest {

    private static final SecretColumn TOTP = SecretColumn.of("customers", "totp_secret");
    private static final SecretColumn WEBHOOK = SecretColumn.of("webhook_endpoints", "secret");
    private static final String SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

    private final byte[] a = key();
    private final byte[] b = key();
    private final UUID row = UUID.randomUUID();

    @Test
    void shouldStoreNoSecretInClearAndOpenItForItsRow() {
        SecretBox box = new SecretBox(List.of(a));

        String sealed = box.seal(SECRET, TOTP, row);

        assertThat(sealed).startsWith("enc:").doesNotContain(SECRET);
        assertThat(Base64.getDecoder().decode(sealed.substring(4))).hasSizeGreaterThan(SECRET.length());
        // the same secret sealed twice: two values (a fresh nonce each)
        assertThat(box.seal(SECRET, TOTP, row)).isNotEqualTo(sealed);
        assertThat(box.open(sealed, TOTP, row)).isEqualTo(SECRET);
    }

    @Test
    void shouldNotOpenAValueMovedToAnotherRowOrPurpose() {
        SecretBox box = new SecretBox(List.of(a));
        String sealed = box.seal(SECRET, TOTP, row);

        assertThatThrownBy(() -> box.open(sealed, TOTP, UUID.randomUUID()))
                .isInstanceOf(SecretBox.UnreadableSecret.class)
                .hasMessageContaining("altered or copied from another row");
        assertThatThrownBy(() -> box.open(sealed, WEBHOOK, row)).isInstanceOf(SecretBox.UnreadableSecret.class);
        assertThatThrownBy(() -> box.open(SECRET, TOTP, row))
                .isInstanceOf(SecretBox.UnreadableSecret.class)
                .hasMessageContaining("in clear");
    }

    @Test
    void shouldOpenWhatTheOldKeySealedAfterANewKeyIsPutInFrontAndSealUnderTheNewOne() {
        String underA = new SecretBox(List.of(a)).seal(SECRET, TOTP, row);
        SecretBox rotated = new SecretBox(List.of(b, a));

        assertThat(rotated.open(underA, TOTP, row)).isEqualTo(SECRET);
        String written = rotated.seal(SECRET, TOTP, row);
        // new writes are sealed under B: B alone opens them, A alone does not
        assertThat(new SecretBox(List.of(b)).open(written, TOTP, row)).isEqualTo(SECRET);
        assertThatThrownBy(() -> new SecretBox(List.of(a)).open(written, TOTP, row))
                .isInstanceOf(SecretBox.UnreadableSecret.class);
        // the start-up step: A's value sealed anew under B, B's value left alone, a clear one sealed
        String resealed = rotated.resealed(underA, TOTP, row).orElseThrow();
        assertThat(new SecretBox(List.of(b)).open(resealed, TOTP, row)).isEqualTo(SECRET);
        assertThat(rotated.resealed(written, TOTP, row)).isEmpty();
        assertThat(rotated.open(rotated.resealed(SECRET, TOTP, row).orElseThrow(), TOTP, row))
                .isEqualTo(SECRET);
    }

    @Test
    void shouldNameTheKeyThatIsMissingOnceTheOldOneIsDropped() {
        String underA = new SecretBox(List.of(a)).seal(SECRET, TOTP, row);
        SecretBox onlyB = new SecretBox(List.of(b));

        assertThatThrownBy(() -> onlyB.open(underA, TOTP, row))
                .isInstanceOf(SecretBox.UnreadableSecret.class)
                .hasMessageContaining(hex(a))
                .hasMessageContaining("KVPORTAL_ENCRYPTION_KEYS does not hold")
                .satisfies(e ->
                        assertThat(((SecretBox.UnreadableSecret) e).keyId()).isEqualTo(hex(a)));
        assertThatThrownBy(() -> onlyB.resealed(underA, TOTP, row)).isInstanceOf(SecretBox.UnreadableSecret.class);
    }

    @Test
    void shouldTellTheSealingPrefixThatTheStartUpStepSkips() {
        SecretBox box = new SecretBox(List.of(b, a));

        assertThat(box.seal(SECRET, TOTP, row)).startsWith(box.sealingPrefix());
        assertThat(new SecretBox(List.of(a)).seal(SECRET, TOTP, row)).doesNotStartWith(box.sealingPrefix());
    }

    private static String hex(byte[] key) {
        return java.util.HexFormat.of().toHexDigits(SecretBox.keyId(key));
    }

    static byte[] key() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return key;
    }
}
