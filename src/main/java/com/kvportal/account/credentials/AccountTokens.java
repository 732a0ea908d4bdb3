package com.kvportal.account.credentials;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The tokens of the links that mail carries (verify an address, reset a password, confirm a new address): 32 random
 * bytes in base64url, of which only the SHA-256 digest is stored; each is redeemed at most once, before it expires.
 */
@Repository
@RequiredArgsConstructor
public class AccountTokens {

    enum Purpose {
        VERIFY_EMAIL,
        RESET_PASSWORD,
        CHANGE_EMAIL;

        String wire() {
            return name().toLowerCase();
        }
    }

    /** A redeemed token: whose it was and the address its link went to. */
    record Redeemed(UUID customerId, String email) {}

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int TOKEN_BYTES = 32;

    private final JdbcClient jdbc;

    /** A new token for the customer; the answer is the only place its raw value ever exists. */
    String issue(UUID customerId, Purpose purpose, String email, Duration lifetime, boolean resent) {
        String token = newToken();
        jdbc.sql(
                        """
                        insert into account_tokens (digest, customer_id, purpose, email, resent, expires_at)
                        values (?, ?, ?, ?, ?, now() + ? * interval '1 second')""")
                .params(digest(token), customerId, purpose.wire(), email, resent, lifetime.toSeconds())
                .update();
        return token;
    }

    /**
     * Uses up a live token of the purpose in one statement, so that two requests racing with the same token cannot
     * both succeed; empty for an unknown, used, expired or malformed one.
     */
    Optional<Redeemed> redeem(@Nullable String token, Purpose purpose) {
        if (!plausible(token)) {
            return Optional.empty();
        }
        return jdbc.sql(
                        """
                        update account_tokens set used_at = now()
                        where digest = ? and purpose = ? and used_at is null and expires_at > now()
                        returning customer_id, email""")
                .params(digest(token), purpose.wire())
                .query(Redeemed.class)
                .optional();
    }

    /** Voids the customer's live tokens of the purpose (a newer link replaces them). */
    void voidLive(UUID customerId, Purpose purpose) {
        jdbc.sql("update account_tokens set used_at = now() where customer_id = ? and purpose = ? and used_at is null")
                .params(customerId, purpose.wire())
                .update();
    }

    /** How many resent links of the purpose the customer got within the window. */
    int resentWithin(UUID customerId, Purpose purpose, Duration window) {
        return jdbc.sql(
                        """
                        select count(*) from account_tokens
                        where customer_id = ? and purpose = ? and resent and created_at > now() - ? * interval '1 second'""")
                .params(customerId, purpose.wire(), window.toSeconds())
                .query(Integer.class)
                .single();
    }

    /**
     * Deletes the tokens whose links have expired, used or not (a used one is kept until then: the limits on resent
     * links count it).
     */
    int deleteExpired() {
        return jdbc.sql("delete from account_tokens where expires_at <= now()").update();
    }

    /** 32 random bytes in base64url: the raw value of a link's token (also an invitation's). */
    public static String newToken() {
        byte[] raw = new byte[TOKEN_BYTES];
        RANDOM.nextBytes(raw);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
    }

    /** Whether a presented token could be one at all (else it is refused without a query). */
    public static boolean plausible(@Nullable String token) {
        return token != null && !token.isBlank() && token.length() <= 100;
    }

    /** The SHA-256 digest under which a token is stored. */
    public static byte[] digest(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
