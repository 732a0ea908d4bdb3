package com.kvportal.sandbox;

import com.kvportal.common.AppBaseUrl;
import com.kvportal.common.LocalTokens;
import com.kvportal.common.encryption.SecretBox;
import com.kvportal.common.encryption.SecretColumn;
import com.kvportal.common.web.BearerToken;
import com.kvportal.sandbox.api.StripeApiController;
import com.kvportal.sandbox.stripe.StripeError;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * The sandbox's own secret key, {@code SANDBOX_API_KEY}: the only key its Stripe API and its test
 * clock take, and the key of this service's own Stripe client while the sandbox is the provider. Unset, it is
 * {@code sk_test_} + 24 random base62 characters generated at the first start and kept in the database (the first
 * of several instances to store one wins). Another sandbox (mail) asks {@link #authorizes} whether a request
 * presents it. A generated key is also written to the local tokens of a bare start ({@link LocalTokens}). Keys are
 * compared through their SHA-256 digests in constant time.
 */
@Component
public class SandboxKey {

    private static final Logger log = LoggerFactory.getLogger(SandboxKey.class);
    private static final String PREFIX = "sk_test_";
    private static final String BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    private static final SecureRandom RANDOM = new SecureRandom();
    /** The generated key, sealed for its one row. */
    private static final SecretColumn KEPT = SecretColumn.of("sandbox.sandbox_api_key", "key");

    private final String key;
    private final byte[] digest;
    private final boolean configured;
    private final AppBaseUrl baseUrl;

    /** Made after {@link SandboxExposure}'s check (through {@link SandboxDatabase}): a refused start generates no key. */
    SandboxKey(
            SandboxProperties properties,
            SandboxDatabase database,
            SecretBox box,
            AppBaseUrl baseUrl,
            LocalTokens local) {
        this.baseUrl = baseUrl;
        this.configured = !properties.apiKey().isBlank();
        this.key = configured ? properties.apiKey().strip() : kept(database, box);
        if (!configured) {
            local.publish(LocalTokens.SANDBOX_KEY, key);
        }
        this.digest = digest(key);
    }

    /** Whether this token is the sandbox's key. */
    public boolean matches(@Nullable String token) {
        return token != null && MessageDigest.isEqual(digest, digest(token));
    }

    /**
     * Whether an {@code Authorization} header presents the sandbox's key: as a bearer token, or as the user name of
     * basic auth (curl's {@code -u sk_test_...:}).
     */
    public boolean authorizes(@Nullable String authorization) {
        return presented(authorization).map(this::matches).orElse(false);
    }

    String value() {
        return key;
    }

    /** Refuses a request that does not present the key with Stripe's 401, naming the key it got as Stripe does. */
    public void require(@Nullable String authorization) {
        if (authorization == null || authorization.isBlank()) {
            throw StripeError.unauthenticated("You did not provide an API key. You need to provide your API key in "
                    + "the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').");
        }
        String presented = presented(authorization).orElse("");
        if (!matches(presented)) {
            throw StripeError.unauthenticated("Invalid API Key provided: " + redacted(presented));
        }
    }

    @EventListener(ApplicationReadyEvent.class)
    void tellWhichKey() {
        if (configured) {
            log.info(
                    "Payment sandbox: its Stripe API ({}) and test clock take the key set in SANDBOX_API_KEY.",
                    baseUrl.resolve(StripeApiController.PREFIX));
        } else {
            log.info(
                    "Payment sandbox: its Stripe API ({}) and test clock take the key {} (SANDBOX_API_KEY; generated "
                            + "at the first start and kept in the database).",
                    baseUrl.resolve(StripeApiController.PREFIX),
                    key);
        }
    }

    /**
     * The key kept in the database; this instance's new one if none is kept yet (the first writer wins). It is kept
     * sealed ({@link SecretBox}); one an older version kept in clear, or an older encryption key sealed, is sealed
     * anew under the current key (unless another instance did so first).
     */
    static String kept(SandboxDatabase database, SecretBox box) {
        database.sql("insert into sandbox.sandbox_api_key (key) values (?) on conflict do nothing")
                .param(box.seal(generate(), KEPT, true))
                .update();
        // a statement of its own: it sees the row of a concurrent first writer once that one committed
        String stored = database.sql("select key from sandbox.sandbox_api_key")
                .query(String.class)
                .single();
        String current = box.resealed(stored, KEPT, true)
                .map(resealed -> {
                    database.sql("update sandbox.sandbox_api_key set key = ? where key = ?")
                            .params(resealed, stored)
                            .update();
                    return resealed;
                })
                .orElse(stored);
        return box.open(current, KEPT, true);
    }

    private static String generate() {
        StringBuilder key = new StringBuilder(PREFIX);
        for (int i = 0; i < 24; i++) {
            key.append(BASE62.charAt(RANDOM.nextInt(BASE62.length())));
        }
        return key.toString();
    }

    private static Optional<String> presented(@Nullable String authorization) {
        if (authorization == null) {
            return Optional.empty();
        }
        return BearerToken.of(authorization).or(() -> basicUser(authorization));
    }

    /** The user name of basic auth, which curl's {@code -u sk_test_...:} makes the key. */
    private static Optional<String> basicUser(String authorization) {
        if (!authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return Optional.empty();
        }
        try {
            String decoded = new String(
                    Base64.getDecoder().decode(authorization.substring(6).strip()), StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            return Optional.of(colon < 0 ? decoded : decoded.substring(0, colon));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** As Stripe shows a refused key: its prefix and its last four characters. */
    private static String redacted(String key) {
        if (key.length() <= 12) {
            return "****";
        }
        return key.substring(0, 8) + "****" + key.substring(key.length() - 4);
    }

    private static byte[] digest(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
