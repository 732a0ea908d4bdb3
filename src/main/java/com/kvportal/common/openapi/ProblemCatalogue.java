package com.kvportal.common.openapi;

import com.kvportal.common.web.Problems;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;

/**
 * Every problem code of the API, once: its status, what it means, and an example detail. {@link ApiContract}
 * names codes; the document takes the rest from here. Add a line (alphabetical) for a new code. A code that two
 * operations answer with different statuses gets one line per status, and operations name it as {@code
 * "409 api_key_revoked"}.
 */
public final class ProblemCatalogue {

    /** One outcome: a code at a status. */
    public record Entry(
            String code, HttpStatus status, String meaning, String exampleDetail, Map<String, String> headers) {}

    private static final String CHALLENGE = "WWW-Authenticate";
    private static final String RETRY_AFTER = "Retry-After";

    private static final List<Entry> ENTRIES = List.of(
            entry(
                    "already_subscribed",
                    HttpStatus.CONFLICT,
                    "The organization already has a live subscription on this tier.",
                    "The organization already has a pro subscription."),
            entry(
                    "api_key_expired",
                    HttpStatus.UNAUTHORIZED,
                    "The presented API key has expired.",
                    "The API key has expired.",
                    CHALLENGE,
                    "Bearer error=\"invalid_token\""),
            entry(
                    "api_key_not_found",
                    HttpStatus.NOT_FOUND,
                    "No API key with this id in the active project (also a key of another project).",
                    "No API key with this id in the active project."),
            entry(
                    "api_key_revoked",
                    HttpStatus.CONFLICT,
                    "The key is revoked: it cannot be rolled.",
                    "The API key has been revoked."),
            entry(
                    "api_key_revoked",
                    HttpStatus.UNAUTHORIZED,
                    "The presented API key has been revoked.",
                    "The API key has been revoked.",
                    CHALLENGE,
                    "Bearer error=\"invalid_token\""),
            entry(
                    "bad_request",
                    HttpStatus.BAD_REQUEST,
                    "The request was refused before it reached the operation (e.g. a control character in a"
                            + " parameter name).",
                    "Bad Request"),
            entry(
                    "csrf_failed",
                    HttpStatus.FORBIDDEN,
                    "A session call that changes state lacks X-XSRF-TOKEN equal to the XSRF-TOKEN cookie.",
                    "Send the value of the XSRF-TOKEN cookie in the X-XSRF-TOKEN header."),
            entry(
                    "database_unavailable",
                    HttpStatus.SERVICE_UNAVAILABLE,
                    "The database cannot be reached; retry after the given delay.",
                    "The database is unavailable; try again shortly.",
                    RETRY_AFTER,
                    "2"),
            entry(
                    "email_already_verified",
                    HttpStatus.CONFLICT,
                    "The customer's email address is verified already: no new link is sent.",
                    "The email address is verified already."),
            entry(
                    "email_unverified",
                    HttpStatus.FORBIDDEN,
                    "Checkout needs a verified email address: the customer has not opened the verification link.",
                    "Verify your email address first: open the link we mailed you."),
            entry(
                    "email_taken",
                    HttpStatus.CONFLICT,
                    "An account with this email address (case-insensitive) exists.",
                    "An account with this email address exists already."),
            entry(
                    "endpoint_limit_reached",
                    HttpStatus.CONFLICT,
                    "The organization has 10 webhook endpoints already: delete one first.",
                    "The organization already has 10 webhook endpoints; delete one first."),
            entry(
                    "insufficient_permissions",
                    HttpStatus.FORBIDDEN,
                    "The API key lacks the admin permission that portal calls need.",
                    "This API key lacks the admin permission that portal calls need."),
            entry(
                    "invalid_api_key",
                    HttpStatus.UNAUTHORIZED,
                    "The API key is missing, malformed or unknown.",
                    "The API key is missing, malformed or unknown.",
                    CHALLENGE,
                    "Bearer error=\"invalid_token\""),
            entry(
                    "invalid_code",
                    HttpStatus.BAD_REQUEST,
                    "The TOTP code is wrong, outside its window or used already.",
                    "The code is wrong, expired or was used already."),
            entry(
                    "invalid_code",
                    HttpStatus.UNAUTHORIZED,
                    "The login's second step failed: the code is wrong, outside its window or used already.",
                    "The code is wrong, expired or was used already.",
                    CHALLENGE,
                    "Bearer"),
            entry(
                    "invalid_credentials",
                    HttpStatus.UNAUTHORIZED,
                    "The email address or the password is wrong (one answer for both).",
                    "The email address or the password is wrong.",
                    CHALLENGE,
                    "Bearer"),
            entry(
                    "key_limit_reached",
                    HttpStatus.CONFLICT,
                    "The project has 1,000 unrevoked keys already.",
                    "The project already has 1000 unrevoked keys; revoke one first."),
            entry(
                    "malformed_event",
                    HttpStatus.BAD_REQUEST,
                    "The body is signed but is not a payment provider event.",
                    "The body is not a payment provider event."),
            entry(
                    "malformed_json",
                    HttpStatus.BAD_REQUEST,
                    "The request body is missing or is not valid JSON.",
                    Problems.malformedJson().getDetail()),
            entry(
                    "malformed_parameters",
                    HttpStatus.BAD_REQUEST,
                    "The query string or form body cannot be decoded.",
                    "The query string or the form body cannot be decoded."),
            entry(
                    "no_billing_account",
                    HttpStatus.CONFLICT,
                    "The organization has no customer at the payment provider yet (no checkout so far).",
                    "The organization has no account at the payment provider yet; start a checkout first."),
            entry(
                    "not_found",
                    HttpStatus.NOT_FOUND,
                    "The endpoint is off (leaked-key reporting without SECRET_SCANNING_PUBLIC_KEYS).",
                    "No such endpoint."),
            entry(
                    "not_on_this_plan",
                    HttpStatus.BAD_REQUEST,
                    "The setting needs a plan the organization is not on (an overage cap on a plan without overage).",
                    "The current plan has no overage, so an overage cap does not apply: send overage_cap_cents null,"
                            + " or use storage_cap_bytes to stop writes at a size."),
            entry(
                    "payload_too_large",
                    HttpStatus.CONTENT_TOO_LARGE,
                    "The request body is over 64 KiB (the webhook: 1 MiB).",
                    Problems.payloadTooLarge(64 * 1024).getDetail()),
            entry(
                    "payment_provider_unavailable",
                    HttpStatus.BAD_GATEWAY,
                    "The payment provider failed or could not be reached; nothing was changed.",
                    "The payment provider is unavailable; try again later."),
            entry(
                    "project_limit_reached",
                    HttpStatus.CONFLICT,
                    "The organization has 100 projects already.",
                    "The organization already has 100 projects."),
            entry(
                    "project_not_found",
                    HttpStatus.NOT_FOUND,
                    "No project with this id in the customer's organizations.",
                    "No project with this id in your organizations."),
            entry(
                    "reauthentication_failed",
                    HttpStatus.FORBIDDEN,
                    "The current password sent to confirm a change is wrong.",
                    "The current password is wrong."),
            entry(
                    "session_required",
                    HttpStatus.BAD_REQUEST,
                    "An API key is bound to its project; switching projects needs a session.",
                    "An API key is bound to its project; switching projects needs a signed-in session."),
            entry(
                    "session_not_found",
                    HttpStatus.NOT_FOUND,
                    "No session of the customer with this id (also an ended one).",
                    "No session of yours with this id."),
            entry(
                    "signature_invalid",
                    HttpStatus.BAD_REQUEST,
                    "The signature header is missing, malformed, stale or does not match the body; nothing changed.",
                    "The signature does not match the body."),
            entry(
                    "subscription_not_found",
                    HttpStatus.NOT_FOUND,
                    "The organization has no live subscription: it is on the free plan.",
                    "The organization has no subscription; it is on the free plan."),
            entry(
                    "tier_not_purchasable",
                    HttpStatus.BAD_REQUEST,
                    "The free tier cannot be bought.",
                    "The free tier cannot be bought; it is what an organization has without one."),
            entry(
                    "token_invalid",
                    HttpStatus.BAD_REQUEST,
                    "The token of a mailed link is unknown, used, expired or replaced by a newer one.",
                    "The link is not valid: it was used already, has expired or was replaced by a newer one."),
            entry(
                    "totp_already_enabled",
                    HttpStatus.CONFLICT,
                    "Two-step login is on already.",
                    "Two-step login is on already; turn it off first."),
            entry(
                    "totp_not_enabled",
                    HttpStatus.CONFLICT,
                    "Two-step login is off: there is nothing to turn off.",
                    "Two-step login is off."),
            entry(
                    "totp_not_started",
                    HttpStatus.CONFLICT,
                    "No TOTP secret was set up to confirm.",
                    "Set two-step login up first."),
            entry(
                    "too_many_attempts",
                    HttpStatus.TOO_MANY_REQUESTS,
                    "Too many failed logins for this email address; retry after the given delay.",
                    "Too many failed logins for this email address; try again in 900 s.",
                    RETRY_AFTER,
                    "900"),
            entry(
                    "too_many_requests",
                    HttpStatus.TOO_MANY_REQUESTS,
                    "Too many requests from this client address; retry after the given delay.",
                    "Too many requests; try again in 60 s.",
                    RETRY_AFTER,
                    "60"),
            entry(
                    "unauthenticated",
                    HttpStatus.UNAUTHORIZED,
                    "No credential, or one that is not valid.",
                    Problems.unauthenticated().getDetail(),
                    CHALLENGE,
                    "Bearer"),
            entry(
                    "unknown_tier",
                    HttpStatus.BAD_REQUEST,
                    "There is no tier of this name.",
                    "There is no tier named 'gold'; the tiers are free, pro (free is what an organization has without a"
                            + " subscription: buy pro)."),
            entry(
                    "unsupported_media_type",
                    HttpStatus.UNSUPPORTED_MEDIA_TYPE,
                    "The request body is not application/json.",
                    Problems.unsupportedMediaType("text/plain").getDetail()),
            entry(
                    "validation_failed",
                    HttpStatus.BAD_REQUEST,
                    "Fields of the request are invalid, or one is not a field of the request; errors names each with a"
                            + " message.",
                    "The request has invalid fields."),
            entry(
                    "webhook_delivery_not_found",
                    HttpStatus.NOT_FOUND,
                    "No delivery with this id at this endpoint.",
                    "No delivery with this id at this endpoint."),
            entry(
                    "webhook_endpoint_not_found",
                    HttpStatus.NOT_FOUND,
                    "No webhook endpoint with this id in the current organization (also another organization's).",
                    "No webhook endpoint with this id in the current organization."));

    private ProblemCatalogue() {}

    public static List<Entry> entries() {
        return ENTRIES;
    }

    /**
     * The entry that a reference names: {@code "code"} when the code has one status, or {@code "409 code"}.
     *
     * @throws IllegalArgumentException for a code that is not in the catalogue, or an ambiguous reference
     */
    public static Entry resolve(String reference) {
        String[] parts = reference.strip().split("\\s+");
        @Nullable Integer status = parts.length == 2 ? Integer.valueOf(parts[0]) : null;
        String code = parts[parts.length - 1];
        List<Entry> matches = new ArrayList<>();
        for (Entry entry : ENTRIES) {
            if (entry.code().equals(code) && (status == null || entry.status().value() == status)) {
                matches.add(entry);
            }
        }
        if (matches.size() != 1) {
            throw new IllegalArgumentException("Problem code '" + reference + "' is "
                    + (matches.isEmpty()
                            ? "not in ProblemCatalogue: add it there"
                            : "ambiguous: name it as 'status code'"));
        }
        return matches.get(0);
    }

    public static Optional<Entry> find(String code) {
        return ENTRIES.stream().filter(e -> e.code().equals(code)).findFirst();
    }

    private static Entry entry(String code, HttpStatus status, String meaning, String detail) {
        return new Entry(code, status, meaning, detail, Map.of());
    }

    private static Entry entry(
            String code, HttpStatus status, String meaning, String detail, String header, String headerExample) {
        return new Entry(code, status, meaning, detail, Map.of(header, headerExample));
    }
}
