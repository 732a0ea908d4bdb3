package com.kvportal.common.encryption;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.AesGcmKey;
import com.google.crypto.tink.aead.AesGcmParameters;
import com.google.crypto.tink.util.SecretBytes;
import com.kvportal.common.database.DatabaseProperties;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Seals and opens the secrets the service stores but must read back, with AES-256-GCM through Google Tink. The keys
 * ({@link EncryptionKeys}) form one Tink keyset: the first key seals, every key opens. Each sealed value carries
 * Tink's prefix (a version byte and the 4-byte id of the key that sealed it, derived from the key), so opening picks
 * its key and a rotation needs no bookkeeping. Each seal is bound to its {@link SecretColumn#purpose()} and its row's
 * id as associated data: moved to another row or purpose, a value does not open.
 *
 * <p>Stored as text: {@value #PREFIX} and the base64 of Tink's ciphertext. No secret in clear starts so (a TOTP
 * secret is base32, the others {@code whsec_...} and {@code sk_test_...}), which tells what an older version stored
 * in clear.
 */
@Component
public class SecretBox {

    static final String PREFIX = "enc:";

    private static final byte TINK_VERSION = 1;

    private final Aead aead;
    private final int sealingKey;
    private final Set<Integer> keyIds = new LinkedHashSet<>();

    @Autowired
    SecretBox(EncryptionProperties properties, DatabaseProperties database) {
        this(EncryptionKeys.resolve(properties.keys(), database.url().isBlank() ? database.embeddedDataDir() : null));
    }

    SecretBox(List<byte[]> keys) {
        try {
            AeadConfig.register();
            AesGcmParameters parameters = AesGcmParameters.builder()
                    .setKeySizeBytes(EncryptionKeys.KEY_BYTES)
                    .setIvSizeBytes(12)
                    .setTagSizeBytes(16)
                    .setVariant(AesGcmParameters.Variant.TINK)
                    .build();
            KeysetHandle.Builder keyset = KeysetHandle.newBuilder();
            for (byte[] key : keys) {
                int id = keyId(key);
                if (!keyIds.add(id)) {
                    throw new EncryptionRefused(
                            "Two keys in " + EncryptionKeys.VARIABLE + " share the id " + hex(id) + ".",
                            "Replace the newer one with another key. " + EncryptionRefused.MAKE_A_KEY);
                }
                KeysetHandle.Builder.Entry entry = KeysetHandle.importKey(AesGcmKey.builder()
                        .setParameters(parameters)
                        .setKeyBytes(SecretBytes.copyFrom(key, InsecureSecretKeyAccess.get()))
                        .setIdRequirement(id)
                        .build());
                keyset.addEntry(keyIds.size() == 1 ? entry.makePrimary() : entry);
            }
            this.aead = keyset.build().getPrimitive(RegistryConfiguration.get(), Aead.class);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Tink refused the encryption keys", e);
        }
        this.sealingKey = keyIds.iterator().next();
    }

    /** A secret that is stored but cannot be opened: sealed under a key not configured, or altered, or moved. */
    public static final class UnreadableSecret extends IllegalStateException {

        private final String keyId;

        UnreadableSecret(String message, String keyId) {
            super(message);
            this.keyId = keyId;
        }

        /** The id of the key that sealed it, in hex; {@code ?} where even that cannot be read. */
        public String keyId() {
            return keyId;
        }
    }

    /** The secret sealed under the first key, for the column's purpose and this row. */
    public String seal(String secret, SecretColumn column, Object rowId) {
        try {
            byte[] sealed = aead.encrypt(secret.getBytes(StandardCharsets.UTF_8), associatedData(column, rowId));
            return PREFIX + Base64.getEncoder().encodeToString(sealed);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM failed to seal", e);
        }
    }

    /**
     * The secret a stored value holds.
     *
     * @throws UnreadableSecret where it is in clear, sealed under a key not configured, or not sealed for this row
     */
    public String open(String stored, SecretColumn column, Object rowId) {
        if (!stored.startsWith(PREFIX)) {
            throw new UnreadableSecret(
                    "A secret in " + where(column, rowId) + " is stored in clear; it is sealed at the next start.",
                    "?");
        }
        byte[] sealed = ciphertext(stored, column, rowId);
        int keyId = keyIdOf(sealed);
        if (!keyIds.contains(keyId)) {
            throw new UnreadableSecret(
                    "The secret in " + where(column, rowId) + " is sealed under the key " + hex(keyId) + ", which "
                            + EncryptionKeys.VARIABLE + " does not hold: put that key back after the first one.",
                    hex(keyId));
        }
        try {
            return new String(aead.decrypt(sealed, associatedData(column, rowId)), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException e) {
            throw new UnreadableSecret(
                    "The secret in " + where(column, rowId) + " does not open under the key " + hex(keyId)
                            + ": it was altered or copied from another row.",
                    hex(keyId));
        }
    }

    /**
     * The value to store instead where this one is not sealed under the first key (in clear, or sealed under an older
     * key); empty where it is.
     *
     * @throws UnreadableSecret where it is sealed but cannot be opened
     */
    public Optional<String> resealed(String stored, SecretColumn column, Object rowId) {
        if (!stored.startsWith(PREFIX)) {
            return Optional.of(seal(stored, column, rowId));
        }
        if (keyIdOf(ciphertext(stored, column, rowId)) == sealingKey) {
            return Optional.empty();
        }
        return Optional.of(seal(open(stored, column, rowId), column, rowId));
    }

    /**
     * How every value sealed under the first key begins: {@value #PREFIX} and the base64 characters that Tink's
     * prefix alone determines (its version byte and 28 bits of the key's id), for SQL that skips those rows.
     */
    String sealingPrefix() {
        byte[] prefix =
                ByteBuffer.allocate(6).put(TINK_VERSION).putInt(sealingKey).array();
        return PREFIX + Base64.getEncoder().encodeToString(prefix).substring(0, 6);
    }

    /** The id of the sealing key, in hex, as start-up messages and refusals name keys. */
    String sealingKeyId() {
        return hex(sealingKey);
    }

    /** The key's id in the keyset: the first 4 bytes of its SHA-256, stable from start to start, never the key. */
    static int keyId(byte[] key) {
        try {
            return ByteBuffer.wrap(MessageDigest.getInstance("SHA-256").digest(key))
                    .getInt();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private static byte[] ciphertext(String stored, SecretColumn column, Object rowId) {
        byte[] sealed;
        try {
            sealed = Base64.getDecoder().decode(stored.substring(PREFIX.length()));
        } catch (IllegalArgumentException e) {
            sealed = new byte[0];
        }
        if (sealed.length < 5 || sealed[0] != TINK_VERSION) {
            throw new UnreadableSecret("The secret in " + where(column, rowId) + " is no sealed value.", "?");
        }
        return sealed;
    }

    private static int keyIdOf(byte[] sealed) {
        return ByteBuffer.wrap(sealed, 1, 4).getInt();
    }

    private static byte[] associatedData(SecretColumn column, Object rowId) {
        return (column.purpose() + ":" + rowId).getBytes(StandardCharsets.UTF_8);
    }

    private static String where(SecretColumn column, Object rowId) {
        return column.table() + "." + column.column() + " (id " + rowId + ")";
    }

    private static String hex(int keyId) {
        return HexFormat.of().toHexDigits(keyId);
    }
}
