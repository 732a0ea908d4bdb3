package com.kvportal.sandbox.api;

import com.kvportal.sandbox.stripe.StripeError;
import com.kvportal.sandbox.stripe.StripeId;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import tools.jackson.databind.json.JsonMapper;

/**
 * Failures of the sandbox's Stripe API in Stripe's shape ({@code {"error": {...}}}), so that stripe-java raises the
 * exception it raises for Stripe; anything unexpected is Stripe's 500 {@code api_error}, logged.
 */
@RestControllerAdvice(assignableTypes = StripeApiController.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
public class StripeErrorAdvice {

    private static final Logger log = LoggerFactory.getLogger(StripeErrorAdvice.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @ExceptionHandler(StripeError.class)
    ResponseEntity<String> stripeError(StripeError e) {
        return StripeAnswers.answer(e.status(), e.body(), false);
    }

    @ExceptionHandler(RuntimeException.class)
    ResponseEntity<String> failure(RuntimeException e, WebRequest request) {
        String requestId = StripeId.REQUEST.next();
        log.error("Sandbox Stripe API failed on {} ({})", request.getDescription(false), requestId, e);
        return StripeAnswers.answer(
                500,
                JSON.writeValueAsString(Map.of(
                        "error",
                        Map.of("type", "api_error", "message", "The sandbox failed to answer (" + requestId + ")."))),
                false,
                requestId);
    }
}
