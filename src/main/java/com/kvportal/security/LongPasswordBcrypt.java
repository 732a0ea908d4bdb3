package com.kvportal.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;

/**
 * bcrypt for every password the contract allows (up to 128 characters, so up to 512 UTF-8 bytes). bcrypt reads
 * at most 72 bytes, and Spring Security refuses longer input rather than truncate it (CVE-2025-22228); a longer
 * password is therefore first reduced to the Base64 of its SHA-256 (44 bytes), so that every byte of it counts.
 * Passwords of at most 72 bytes are hashed as plain bcrypt, so those hashes stay standard {@code {bcrypt}} ones.
 */
final class LongPasswordBcrypt implements PasswordEncoder {

    private static final int BCRYPT_MAX_BYTES = 72;

    private final BCryptPasswordEncoder bcrypt = new BCryptPasswordEncoder();

    @Override
    public String encode(CharSequence rawPassword) {
        return bcrypt.encode(fitted(rawPassword));
    }

    @Override
    public boolean matches(CharSequence rawPassword, String encodedPassword) {
        return bcrypt.matches(fitted(rawPassword), encodedPassword);
    }

    @Override
    public boolean upgradeEncoding(String encodedPassword) {
        return bcrypt.upgradeEncoding(encodedPassword);
    }

    private static CharSequence fitted(CharSequence rawPassword) {
        byte[] bytes = rawPassword.toString().getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= BCRYPT_MAX_BYTES) {
            return rawPassword;
        }
        try {
            return Base64.getEncoder()
                    .encodeToString(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
