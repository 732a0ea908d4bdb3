package com.kvportal.sandbox.api;

import com.kvportal.sandbox.stripe.StripeParams;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One call of the sandbox's Stripe API, authenticated: its method, its path below {@code /sandbox/stripe}, its
 * parameters in Stripe's form encoding, and the {@code Idempotency-Key} it carries, if any.
 */
public record StripeCall(String method, String path, StripeParams params, @Nullable String idempotencyKey) {

    List<String> expand() {
        return params.list("expand");
    }

    /** The call's identity for its idempotency key: the same key with another call is refused. */
    String fingerprint() {
        return method + " " + path + "\n" + params.fingerprint();
    }
}
