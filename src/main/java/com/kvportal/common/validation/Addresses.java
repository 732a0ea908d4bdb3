package com.kvportal.common.validation;

import java.net.IDN;
import java.util.Optional;

/**
 * Email addresses as mail carries them: the part before the {@code @} in ASCII, and the domain in its ASCII
 * (punycode) form, {@code ada@exämple.com} as {@code ada@xn--exmple-cua.com}. A person types the domain as they
 * read it; the service keeps it so and sends to the ASCII form, which every SMTP server takes.
 */
public final class Addresses {

    private Addresses() {}

    /**
     * The address with its domain in ASCII (punycode) form, or empty when the domain has no such form (a label
     * over 63 characters, characters no domain may hold).
     */
    public static Optional<String> ascii(String address) {
        int at = address.lastIndexOf('@');
        if (at < 0) {
            return Optional.empty();
        }
        try {
            return Optional.of(address.substring(0, at + 1) + IDN.toASCII(address.substring(at + 1)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** The address to send to: {@link #ascii}, or the address as given when it has no ASCII form. */
    public static String forSending(String address) {
        return ascii(address.strip()).orElse(address.strip());
    }
}
