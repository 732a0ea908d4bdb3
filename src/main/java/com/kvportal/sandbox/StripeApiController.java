package com.kvportal.sandbox;

import com.stripe.Stripe;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.util.RawValue;

/**
 * The part of Stripe's REST API that the service uses, at Stripe's paths under {@code /sandbox/stripe}: any
 * {@code sk_test_} key, Stripe's form encoding, JSON shapes and errors, {@code expand}, and {@code Idempotency-Key}.
 */
@RestController
@SandboxMode
class StripeApiController {

    static final String PREFIX = "/sandbox/stripe";
    private static final Logger log = LoggerFactory.getLogger(StripeApiController.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int MAX_IDEMPOTENCY_KEY_LENGTH = 255;

    private final StripeSandbox sandbox;
    private final StripeInvoices invoices;
    private final EventOutbox outbox;
    private final SandboxObjects objects;
    private final StripeJson json;
    private final IdempotencyKeys idempotencyKeys;
    private final TransactionTemplate transactions;

    StripeApiController(
            StripeSandbox sandbox,
            StripeInvoices invoices,
            EventOutbox outbox,
            SandboxObjects objects,
            StripeJson json,
            IdempotencyKeys idempotencyKeys,
            TransactionTemplate transactions) {
        this.sandbox = sandbox;
        this.invoices = invoices;
        this.outbox = outbox;
        this.objects = objects;
        this.json = json;
        this.idempotencyKeys = idempotencyKeys;
        this.transactions = transactions;
    }

    private record Answer(int status, String body, boolean replayed) {}

    /** An event's body exactly as it was delivered: answered as it is, not rendered again. */
    private static final class Delivered extends RuntimeException {
        private final String body;

        Delivered(String body) {
            super(null, null, false, false);
            this.body = body;
        }
    }

    @RequestMapping(PREFIX + "/**")
    ResponseEntity<String> handle(HttpServletRequest request) {
        String requestId = StripeIds.request();
        Answer answer;
        try {
            authenticate(request.getHeader(HttpHeaders.AUTHORIZATION));
            String method = request.getMethod();
            String path = request.getRequestURI().substring(PREFIX.length());
            StripeParams params = StripeParams.of(request.getParameterMap());
            String key = request.getHeader("Idempotency-Key");
            if (method.equals("POST") && key != null && !key.isBlank()) {
                answer = idempotent(key, method + " " + path + "\n" + params.fingerprint(), method, path, params);
            } else {
                answer = new Answer(200, JSON.writeValueAsString(route(method, path, params)), false);
            }
        } catch (StripeError e) {
            answer = new Answer(e.status(), JSON.writeValueAsString(e.body()), false);
        } catch (Delivered e) {
            answer = new Answer(200, e.body, false);
        } catch (RuntimeException e) {
            log.error("Sandbox Stripe API failed on {} {}", request.getMethod(), request.getRequestURI(), e);
            answer = new Answer(
                    500,
                    JSON.writeValueAsString(Map.of(
                            "error",
                            Map.of(
                                    "type",
                                    "api_error",
                                    "message",
                                    "The sandbox failed to answer (" + requestId + ")."))),
                    false);
        }
        ResponseEntity.BodyBuilder response = ResponseEntity.status(answer.status())
                .contentType(MediaType.APPLICATION_JSON)
                .header("Request-Id", requestId)
                .header("Stripe-Version", Stripe.API_VERSION)
                .header(HttpHeaders.CACHE_CONTROL, "no-cache, no-store");
        if (answer.replayed()) {
            response.header("Idempotent-Replayed", "true");
        }
        return response.body(answer.body());
    }

    /**
     * Runs a POST once per key: the key is taken in the transaction of the call's effects and stored with its
     * answer, so a retry gets the same answer and no second effect; the same key with other parameters is refused.
     * A call that fails is rolled back with its key, so that it can be retried.
     */
    private Answer idempotent(String key, String fingerprint, String method, String path, StripeParams params) {
        if (key.length() > MAX_IDEMPOTENCY_KEY_LENGTH) {
            throw StripeError.invalid(
                    "Idempotency-Key",
                    "Idempotency keys can have at most " + MAX_IDEMPOTENCY_KEY_LENGTH + " characters.");
        }
        Answer answer = transactions.execute(tx -> {
            if (!idempotencyKeys.claim(key, fingerprint)) {
                IdempotencyKeys.Stored stored = idempotencyKeys.find(key).orElseThrow();
                if (!stored.fingerprint().equals(fingerprint)) {
                    return new Answer(
                            400,
                            JSON.writeValueAsString(
                                    StripeError.idempotencyMismatch(key).body()),
                            false);
                }
                if (stored.status() == null || stored.body() == null) {
                    throw new IllegalStateException("idempotency key stored without an answer");
                }
                return new Answer(stored.status(), stored.body(), true);
            }
            try {
                String body = JSON.writeValueAsString(route(method, path, params));
                idempotencyKeys.answer(key, 200, body);
                return new Answer(200, body, false);
            } catch (StripeError e) {
                tx.setRollbackOnly();
                return new Answer(e.status(), JSON.writeValueAsString(e.body()), false);
            }
        });
        if (answer == null) {
            throw new IllegalStateException("no answer");
        }
        return answer;
    }

    private Map<String, Object> route(String method, String path, StripeParams params) {
        List<String> expand = params.list("expand");
        String[] parts = path.split("/");
        // parts[0] is empty (the path starts with a slash), parts[1] is the version
        if (parts.length < 3 || !parts[1].equals("v1")) {
            throw StripeError.unrecognizedUrl(method, path);
        }
        String resource = parts[2];
        int idIndex = 3;
        if (resource.equals("checkout") || resource.equals("billing_portal")) {
            if (parts.length < 4 || !parts[3].equals("sessions")) {
                throw StripeError.unrecognizedUrl(method, path);
            }
            resource = resource + "/sessions";
            idIndex = 4;
        }
        if (resource.equals("invoices") && parts.length == idIndex + 2 && parts[idIndex + 1].equals("finalize")) {
            if (!method.equals("POST")) {
                throw StripeError.unrecognizedUrl(method, path);
            }
            return json.expand(invoices.finalizeInvoice(parts[idIndex], params), expand);
        }
        if (parts.length > idIndex + 1) {
            throw StripeError.unrecognizedUrl(method, path);
        }
        @Nullable String id = parts.length == idIndex + 1 ? parts[idIndex] : null;
        Map<String, Object> result = dispatch(method, path, resource, id, params);
        return json.expand(result, expand);
    }

    private Map<String, Object> dispatch(
            String method, String path, String resource, @Nullable String id, StripeParams params) {
        String call = method + " " + resource + (id == null ? "" : "/{id}");
        switch (call) {
            case "POST customers":
                return sandbox.createCustomer(params);
            case "GET customers/{id}":
                return objects.customer(id)
                        .map(json::customer)
                        .orElseThrow(() -> StripeError.noSuch("customer", id, "id"));
            case "POST customers/{id}":
                return sandbox.updateCustomer(id, params);
            case "POST checkout/sessions":
                return sandbox.createCheckoutSession(params);
            case "GET checkout/sessions/{id}":
                return objects.checkoutSession(id)
                        .map(json::checkoutSession)
                        .orElseThrow(() -> StripeError.noSuch("checkout.session", id, "session"));
            case "GET subscriptions": {
                int limit = limit(params);
                return page(
                        objects.subscriptions(params.text("customer"), params.text("status"), limit + 1),
                        limit,
                        json::subscription,
                        "/v1/subscriptions");
            }
            case "GET subscriptions/{id}":
                return objects.subscription(id)
                        .map(json::subscription)
                        .orElseThrow(() -> StripeError.noSuch("subscription", id, "id"));
            case "POST subscriptions/{id}":
                return sandbox.updateSubscription(id, params);
            case "DELETE subscriptions/{id}":
                return sandbox.cancelSubscription(id);
            case "POST billing_portal/sessions":
                return sandbox.createPortalSession(params);
            case "GET invoices": {
                int limit = limit(params);
                return page(
                        objects.invoices(
                                params.text("customer"), params.text("subscription"), params.text("status"), limit + 1),
                        limit,
                        json::invoice,
                        "/v1/invoices");
            }
            case "GET invoices/{id}":
                return objects.invoice(id)
                        .map(json::invoice)
                        .orElseThrow(() -> StripeError.noSuch("invoice", id, "id"));
            case "POST invoices":
                return invoices.createInvoice(params);
            case "POST invoiceitems":
                return invoices.createInvoiceItem(params);
            case "GET invoiceitems/{id}":
                return objects.invoiceItem(id)
                        .map(json::invoiceItem)
                        .orElseThrow(() -> StripeError.noSuch("invoiceitem", id, "id"));
            case "GET events": {
                int limit = limit(params);
                List<String> bodies = outbox.newest(params.text("type"), limit + 1);
                return StripeJson.list(
                        bodies.stream().limit(limit).map(RawValue::new).toList(), "/v1/events", bodies.size() > limit);
            }
            case "GET events/{id}":
                throw new Delivered(outbox.payload(id).orElseThrow(() -> StripeError.noSuch("event", id, "id")));
            case "GET prices/{id}":
                return objects.price(id).map(json::price).orElseThrow(() -> StripeError.noSuch("price", id, "id"));
            default:
                throw StripeError.unrecognizedUrl(method, path);
        }
    }

    private static int limit(StripeParams params) {
        Long limit = params.integer("limit");
        if (limit == null) {
            return 10;
        }
        if (limit < 1 || limit > 100) {
            throw StripeError.invalid("limit", "limit must be between 1 and 100.");
        }
        return limit.intValue();
    }

    /** A list of at most {@code limit} objects; {@code rows} holds one more when there are more. */
    private static <T> Map<String, Object> page(
            List<T> rows, int limit, Function<T, Map<String, Object>> render, String url) {
        return StripeJson.list(rows.stream().limit(limit).map(render).toList(), url, rows.size() > limit);
    }

    /** Any test-mode secret key, as a bearer token or as the user name of basic auth (curl's {@code -u sk_test_...:}). */
    private static void authenticate(@Nullable String authorization) {
        if (authorization == null || authorization.isBlank()) {
            throw StripeError.unauthenticated("You did not provide an API key. You need to provide your API key in "
                    + "the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').");
        }
        String key;
        if (authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            key = authorization.substring(7).strip();
        } else if (authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            try {
                String decoded = new String(
                        Base64.getDecoder().decode(authorization.substring(6).strip()), StandardCharsets.UTF_8);
                int colon = decoded.indexOf(':');
                key = colon < 0 ? decoded : decoded.substring(0, colon);
            } catch (IllegalArgumentException e) {
                key = "";
            }
        } else {
            key = "";
        }
        if (!key.startsWith("sk_test_") || key.length() <= "sk_test_".length()) {
            throw StripeError.unauthenticated("Invalid API Key provided: " + redacted(key)
                    + ". The sandbox accepts any test-mode secret key (sk_test_...).");
        }
    }

    private static String redacted(String key) {
        if (key.length() <= 8) {
            return "****";
        }
        return key.substring(0, 8) + "****" + key.substring(key.length() - 4);
    }
}
