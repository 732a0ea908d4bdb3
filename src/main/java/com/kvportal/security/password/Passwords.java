package com.kvportal.security.password;

import java.util.Map;
import org.springframework.security.crypto.password.DelegatingPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;

/** How passwords are hashed and checked. */
public final class Passwords {

    private Passwords() {}

    /**
     * Argon2id behind an id prefix ({@code {argon2}...}) for every new hash; the {@code {bcrypt}} hashes of before
     * still verify, and {@code upgradeEncoding} tells the login to store the password anew.
     */
    public static PasswordEncoder encoder() {
        return new DelegatingPasswordEncoder("argon2", Map.of("argon2", new Argon2id(), "bcrypt", new LegacyBcrypt()));
    }
}
