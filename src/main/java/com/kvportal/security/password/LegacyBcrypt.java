package com.kvportal.security.password;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.regex.Pattern;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;

/**
 * Verifies the {@code {bcrypt}} hashes stored before passwords were hashed with Argon2id; it makes none (the login
 * that verifies one stores the password anew as Argon2id). Those hashes came in two kinds: a password of at most 72
 * UTF-8 bytes was hashed as it is; a longer one was first reduced to the Base64 of its SHA-256 (44 characters), since
 * bcrypt reads at most 72 bytes. That reduced form must never log in by itself: against these hashes, a password of
 * exactly its shape (43 Base64 characters and {@code =}) is refused. Nobody chose such a password by chance; whoever
 * did resets it.
 */
final class LegacyBcrypt implements PasswordEncoder {

    private static final int BCRYPT_MAX_BYTES = 72;
    private static final Pattern REDUCED_FORM = Pattern.compile("[A-Za-z0-9+/]{43}=");

    private final BCryptPasswordEncoder bcrypt = new BCryptPasswordEncoder();

    @Override
    public String encode(CharSequence rawPassword) {
        throw new UnsupportedOperationException("bcrypt hashes are only verified; new hashes are Argon2id");
    }

    @Override
    public boolean matches(CharSequence rawPassword, String encodedPassword) {
        byte[] bytes = rawPassword.toString().getBytes(StandardCharsets.UTF_8);
        if (bytes.length > BCRYPT_MAX_BYTES) {
            return bcrypt.matches(reduced(bytes), encodedPassword);
        }
        return !REDUCED_FORM.matcher(rawPassword).matches() && bcrypt.matches(rawPassword, encodedPassword);
    }

    @Override
    public boolean upgradeEncoding(String encodedPassword) {
        return true;
    }

    private static String reduced(byte[] password) {
        try {
            return Base64.getEncoder()
                    .encodeToString(MessageDigest.getInstance("SHA-256").digest(password));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
