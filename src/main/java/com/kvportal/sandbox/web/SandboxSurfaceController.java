package com.kvportal.sandbox.web;

import com.kvportal.sandbox.SandboxKey;
import com.kvportal.sandbox.checkout.StripeCheckout;
import com.kvportal.sandbox.customer.StripeCustomers;
import com.kvportal.sandbox.store.CardOutcome;
import com.kvportal.sandbox.stripe.StripeError;
import com.kvportal.sandbox.stripe.StripeJson;
import com.kvportal.sandbox.subscription.StripeSubscriptions;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import lombok.RequiredArgsConstructor;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The sandbox's own surface for people, scripts and tests: pay a checkout session, move a
 * subscription to its period end, set the card a customer's next charges meet. Paying needs no key (the session's id
 * is unguessable, as on Stripe's hosted page); the test clock ({@code advance}, {@code card}) takes only the
 * sandbox's key. Bodies are a form or JSON; answers are JSON (errors in Stripe's shape), or HTML for a browser's form
 * post.
 */
@RestController
@RequiredArgsConstructor
public class SandboxSurfaceController {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final StripeCheckout checkout;
    private final StripeSubscriptions subscriptions;
    private final StripeCustomers customers;
    private final SandboxPages pages;
    private final SandboxKey key;

    @PostMapping("/sandbox/checkout/{sessionId}/pay")
    ResponseEntity<String> pay(@PathVariable String sessionId, HttpServletRequest request) {
        boolean html = wantsHtml(request);
        try {
            Map<String, String> fields = fields(request, "outcome", "country", "promotion_code");
            String outcome = fields.get("outcome");
            CardOutcome card = outcome == null ? CardOutcome.SUCCEEDED : parse(outcome);
            StripeCheckout.Payment payment = checkout.pay(
                    sessionId, card, new StripeCheckout.PageInput(fields.get("country"), fields.get("promotion_code")));
            if (payment.declined()) {
                StripeError declined = StripeError.cardDeclined();
                return html
                        ? pages.checkout(sessionId, 402, "Your card was declined. Try another card.")
                        : json(declined.status(), declined.body());
            }
            return ResponseEntity.status(303)
                    .header(HttpHeaders.LOCATION, payment.session().successRedirect())
                    .build();
        } catch (StripeError e) {
            if (html) {
                return e.status() == 404
                        ? Html.notFound("checkout session")
                        : pages.checkout(sessionId, e.status(), e.getMessage());
            }
            return json(e.status(), e.body());
        }
    }

    @PostMapping("/sandbox/subscriptions/{subscriptionId}/advance")
    ResponseEntity<String> advance(@PathVariable String subscriptionId, HttpServletRequest request) {
        try {
            key.require(request.getHeader(HttpHeaders.AUTHORIZATION));
            return json(200, StripeJson.GSON.toJson(subscriptions.advance(subscriptionId)));
        } catch (StripeError e) {
            return json(e.status(), e.body());
        }
    }

    @PostMapping("/sandbox/customers/{customerId}/card")
    ResponseEntity<String> card(@PathVariable String customerId, HttpServletRequest request) {
        try {
            key.require(request.getHeader(HttpHeaders.AUTHORIZATION));
            String outcome = fields(request, "outcome").get("outcome");
            if (outcome == null) {
                throw StripeError.missing("outcome");
            }
            return json(200, JSON.writeValueAsString(customers.useCard(customerId, parse(outcome))));
        } catch (StripeError e) {
            return json(e.status(), e.body());
        }
    }

    private static CardOutcome parse(String outcome) {
        return CardOutcome.parse(outcome)
                .orElseThrow(() -> StripeError.invalid("outcome", "outcome must be succeeded or card_declined."));
    }

    /**
     * The text fields {@code names} from a JSON body or from a form (or query) parameters; an absent or empty one is
     * left out. A JSON value that is not a string is refused, naming the field.
     */
    private static Map<String, String> fields(HttpServletRequest request, String... names) {
        Map<String, String> fields = new HashMap<>();
        if (isJson(request)) {
            JsonNode body;
            try {
                String text = new String(request.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (text.isBlank()) {
                    return fields;
                }
                body = JSON.readTree(text);
            } catch (IOException | JacksonException e) {
                throw StripeError.invalid("body", "The request body is not valid JSON.");
            }
            for (String name : names) {
                JsonNode value = body.get(name);
                if (value == null || value.isNull()) {
                    continue;
                }
                if (!value.isString()) {
                    throw StripeError.invalid(
                            name,
                            name.equals("outcome")
                                    ? "outcome must be succeeded or card_declined."
                                    : name + " must be a string.");
                }
                fields.put(name, value.asString());
            }
            return fields;
        }
        for (String name : names) {
            String value = request.getParameter(name);
            if (value != null && !value.isEmpty()) {
                fields.put(name, value);
            }
        }
        return fields;
    }

    private static boolean isJson(HttpServletRequest request) {
        String type = request.getContentType();
        return type != null && type.toLowerCase().startsWith(MediaType.APPLICATION_JSON_VALUE);
    }

    /** A browser's form post (it accepts HTML and does not send JSON) gets a page, anything else JSON. */
    private static boolean wantsHtml(HttpServletRequest request) {
        String accept = request.getHeader(HttpHeaders.ACCEPT);
        return !isJson(request) && accept != null && accept.contains(MediaType.TEXT_HTML_VALUE);
    }

    private static ResponseEntity<String> json(int status, String body) {
        return ResponseEntity.status(status)
                .contentType(MediaType.APPLICATION_JSON)
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .body(body);
    }
}
