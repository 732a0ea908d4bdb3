package com.kvportal.sandbox.api;

import com.kvportal.sandbox.stripe.StripeError;
import com.kvportal.sandbox.stripe.StripeId;
import com.kvportal.sandbox.stripe.StripeJson;
import com.kvportal.sandbox.stripe.StripeViews;
import com.stripe.Stripe;
import com.stripe.model.StripeObject;
import java.util.function.Supplier;
import lombok.RequiredArgsConstructor;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Answers the sandbox's Stripe API calls as Stripe does: the object in its JSON shape with what {@code expand} asks
 * for, Stripe's headers, and for a POST with an {@code Idempotency-Key} the first answer again on a retry.
 */
@Component
@RequiredArgsConstructor
public class StripeAnswers {

    private static final int MAX_IDEMPOTENCY_KEY_LENGTH = 255;

    private final StripeViews views;
    private final IdempotentAnswers idempotentAnswers;
    private final TransactionTemplate transactions;

    /** A call without effects to repeat safely (or, like DELETE, one Stripe does not key): the object it reads. */
    ResponseEntity<String> read(StripeCall call, Supplier<? extends StripeObject> action) {
        return ok(render(call, action), false);
    }

    /**
     * A POST: run once per idempotency key. The key is taken in the transaction of the call's effects and stored
     * with its answer, so a retry gets the same answer and no second effect; the same key with other parameters is
     * refused. A call that fails is rolled back with its key, so that it can be retried.
     */
    ResponseEntity<String> post(StripeCall call, Supplier<? extends StripeObject> action) {
        String key = call.idempotencyKey();
        if (key == null) {
            return ok(render(call, action), false);
        }
        if (key.length() > MAX_IDEMPOTENCY_KEY_LENGTH) {
            throw StripeError.invalid(
                    "Idempotency-Key",
                    "Idempotency keys can have at most " + MAX_IDEMPOTENCY_KEY_LENGTH + " characters.");
        }
        String fingerprint = call.fingerprint();
        ResponseEntity<String> answer = transactions.execute(tx -> {
            if (!idempotentAnswers.claim(key, fingerprint)) {
                IdempotentAnswers.Stored stored = idempotentAnswers.find(key).orElseThrow();
                if (!stored.fingerprint().equals(fingerprint)) {
                    throw StripeError.idempotencyMismatch(key);
                }
                if (stored.status() == null || stored.body() == null) {
                    throw new IllegalStateException("idempotency key stored without an answer");
                }
                return answer(stored.status(), stored.body(), true);
            }
            String body = render(call, action);
            idempotentAnswers.answer(key, 200, body);
            return ok(body, false);
        });
        if (answer == null) {
            throw new IllegalStateException("no answer");
        }
        return answer;
    }

    /** A body kept as it was written (an event as it was delivered). */
    ResponseEntity<String> exactly(String body) {
        return ok(body, false);
    }

    private String render(StripeCall call, Supplier<? extends StripeObject> action) {
        return StripeJson.GSON.toJson(views.expanded(action.get(), call.expand()));
    }

    private static ResponseEntity<String> ok(String body, boolean replayed) {
        return answer(200, body, replayed);
    }

    /** Stripe's answer: JSON, its request id, its API version, never cached. */
    static ResponseEntity<String> answer(int status, String body, boolean replayed) {
        return answer(status, body, replayed, StripeId.REQUEST.next());
    }

    static ResponseEntity<String> answer(int status, String body, boolean replayed, String requestId) {
        ResponseEntity.BodyBuilder response = ResponseEntity.status(status)
                .contentType(MediaType.APPLICATION_JSON)
                .header("Request-Id", requestId)
                .header("Stripe-Version", Stripe.API_VERSION)
                .header(HttpHeaders.CACHE_CONTROL, "no-cache, no-store");
        if (replayed) {
            response.header("Idempotent-Replayed", "true");
        }
        return response.body(body);
    }
}
