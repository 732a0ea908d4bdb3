package com.kvportal.sandbox.stripe;

import com.google.gson.JsonObject;
import com.stripe.net.ApiResource;
import org.jspecify.annotations.Nullable;

/**
 * A failure answered in Stripe's shape, {@code {"error": {type, code, message, param}}}, so that stripe-java
 * raises the exception it raises for Stripe (404 and 400: InvalidRequestException, 401: AuthenticationException,
 * 402: CardException, 409 with idempotency_error: IdempotencyException).
 */
public class StripeError extends RuntimeException {

    private final int status;
    private final String type;
    private final @Nullable String code;
    private final @Nullable String param;
    private final @Nullable String declineCode;

    StripeError(
            int status,
            String type,
            @Nullable String code,
            String message,
            @Nullable String param,
            @Nullable String declineCode) {
        super(message, null, false, false);
        this.status = status;
        this.type = type;
        this.code = code;
        this.param = param;
        this.declineCode = declineCode;
    }

    public static StripeError noSuch(String kind, String id, @Nullable String param) {
        return invalidRequest(404, "resource_missing", "No such " + kind + ": '" + id + "'", param);
    }

    /** A reference in the parameters to an object that does not exist: 400, as Stripe answers it. */
    public static StripeError noSuchParam(String kind, String id, String param) {
        return invalidRequest(400, "resource_missing", "No such " + kind + ": '" + id + "'", param);
    }

    public static StripeError invalid(String param, String message) {
        return invalidRequest(400, "parameter_invalid", message, param);
    }

    /** Two parameters given together that exclude each other: 400 on {@code param}, in Stripe's words. */
    public static StripeError onlyOneOf(String param, String first, String second) {
        return invalid(param, "You may only specify one of these parameters: " + first + ", " + second + ".");
    }

    public static StripeError missing(String param) {
        return invalidRequest(400, "parameter_missing", "Missing required param: " + param + ".", param);
    }

    public static StripeError unknownParameter(String param) {
        String message = "Received unknown parameter: " + param + " (the sandbox does not support it)";
        return invalidRequest(400, "parameter_unknown", message, param);
    }

    public static StripeError unrecognizedUrl(String method, String path) {
        return invalidRequest(404, null, "Unrecognized request URL (" + method + ": " + path + ").", null);
    }

    /** Deleting an invoice item that is a line of an invoice that is no longer a draft, as Stripe refuses it. */
    public static StripeError notDeletable(String itemId, String invoiceId) {
        return invalidRequest(
                400,
                "invoice_not_editable",
                "The invoice item " + itemId + " cannot be deleted: its invoice " + invoiceId + " is no longer a "
                        + "draft. Only pending items and items of draft invoices can be deleted.",
                null);
    }

    /** An invoice item for an invoice that is no longer a draft, as Stripe refuses it. */
    public static StripeError notEditable(String invoiceId) {
        return invalidRequest(
                400,
                "invoice_not_editable",
                "The invoice " + invoiceId + " can no longer be edited: it is not a draft. Create the invoice item "
                        + "without an invoice instead: it is then added to the customer's next invoice.",
                "invoice");
    }

    public static StripeError amountTooLarge(long max) {
        String message = "Amount must be no more than " + StripeJson.money(max) + ".";
        return invalidRequest(400, "amount_too_large", message, "unit_amount_decimal");
    }

    public static StripeError unauthenticated(String message) {
        return invalidRequest(401, null, message, null);
    }

    public static StripeError cardDeclined() {
        return new StripeError(402, "card_error", "card_declined", "Your card was declined.", null, "generic_decline");
    }

    public static StripeError idempotencyMismatch(String key) {
        return new StripeError(
                400,
                "idempotency_error",
                null,
                "Keys for idempotent requests can only be used with the same parameters they were first used with. "
                        + "Try using a key other than '" + key + "' if you meant to execute a different request.",
                null,
                null);
    }

    /** A call that the object's state does not allow (e.g. advancing a canceled subscription). */
    public static StripeError state(String code, String message) {
        return invalidRequest(400, code, message, null);
    }

    /** A call that the object's state does not allow, answered by Stripe without an error code. */
    public static StripeError state(String message) {
        return invalidRequest(400, null, message, null);
    }

    /** Stripe's {@code invalid_request_error}, the type of every failure but a declined card and a reused key. */
    private static StripeError invalidRequest(
            int status, @Nullable String code, String message, @Nullable String param) {
        return new StripeError(status, "invalid_request_error", code, message, param, null);
    }

    public int status() {
        return status;
    }

    /** The answer's body: stripe-java's own error model, written without the fields this error does not have. */
    public String body() {
        com.stripe.model.StripeError error = new com.stripe.model.StripeError();
        error.setCode(code);
        error.setDeclineCode(declineCode);
        error.setMessage(getMessage());
        error.setParam(param);
        error.setType(type);
        JsonObject body = new JsonObject();
        body.add("error", ApiResource.GSON.toJsonTree(error));
        return ApiResource.GSON.toJson(body);
    }
}
