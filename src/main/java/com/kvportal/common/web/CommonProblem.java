package com.kvportal.common.web;

import static com.kvportal.common.web.ProblemCode.define;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import lombok.Getter;
import lombok.RequiredArgsConstructor;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

/** The problem codes that every feature shares: those an operation's shape and credentials imply, and the answers of the web layer (see {@link ProblemCode}). */
@Getter
@RequiredArgsConstructor
public enum CommonProblem implements ProblemCode {
    API_KEY_DISABLED(define(
                    HttpStatus.UNAUTHORIZED,
                    "api_key_disabled",
                    "The presented API key is switched off (enabled: false); it works again once enabled.",
                    "The API key is disabled; enable it again (PATCH /api/v1/api-keys/{id} with enabled: true) or"
                            + " use another key.")
            .withHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer error=\"invalid_token\"")),
    BAD_REQUEST(define(
            HttpStatus.BAD_REQUEST,
            "bad_request",
            "The request was refused before any endpoint was chosen: a path with //, ; (e.g. ;jsessionid=), an"
                    + " encoded slash or a dot segment, or a header or parameter name with a control character; the"
                    + " detail says what to send instead.",
            RefusedRequests.badPathDetail("/api/v1/session;jsessionid=0"))),
    CSRF_FAILED(define(
            HttpStatus.FORBIDDEN,
            "csrf_failed",
            "A session call that changes state lacks X-XSRF-TOKEN equal to the XSRF-TOKEN cookie.",
            "Send the value of the XSRF-TOKEN cookie in the X-XSRF-TOKEN header.")),
    DATABASE_UNAVAILABLE(define(
                    HttpStatus.SERVICE_UNAVAILABLE,
                    "database_unavailable",
                    "The database cannot be reached; retry after the given delay.",
                    "The database is unavailable; try again shortly.")
            .withHeader(HttpHeaders.RETRY_AFTER, "2")),
    EMAIL_UNVERIFIED(define(
            HttpStatus.FORBIDDEN,
            "email_unverified",
            "The call needs a verified email address (the customer's; an API key: its creator's), and the link we"
                    + " mailed has not been opened yet; nothing changed.",
            "Verify your email address first: open the link we mailed you, or ask for a new one with POST"
                    + " /api/v1/account/verification-email.")),
    INSUFFICIENT_PERMISSIONS(define(
            HttpStatus.FORBIDDEN,
            "insufficient_permissions",
            "The API key lacks the admin permission that portal calls need.",
            "This API key lacks the admin permission that portal calls need.")),
    INSUFFICIENT_ROLE(define(
            HttpStatus.FORBIDDEN,
            "insufficient_role",
            "The caller's role in the current organization may not make this call (or the caller is no longer a"
                    + " member; or the call uses an API key with admin whose creator is no longer an owner or admin"
                    + " there).",
            "Your role in this organization may not do this.")),
    IP_NOT_ALLOWED(define(
            HttpStatus.FORBIDDEN,
            "ip_not_allowed",
            "The API key has allowed addresses (allowed_ips) and the client's address (verify: client_ip) is missing"
                    + " or outside every one of them.",
            "This API key may be used only from its allowed addresses; send the request from one of them, or add"
                    + " this address to the key's allowed_ips.")),
    MALFORMED_JSON(define(
            HttpStatus.BAD_REQUEST,
            "malformed_json",
            "The request body is missing or is not valid JSON.",
            "The request body is missing or is not valid JSON (UTF-8 text without NUL or lone surrogates): send a"
                    + " JSON object, as the OpenAPI document at /v3/api-docs describes.")),
    MALFORMED_PARAMETERS(define(
            HttpStatus.BAD_REQUEST,
            "malformed_parameters",
            "The query string or form body cannot be decoded.",
            "The query string or the form body cannot be decoded.")),
    NOT_FOUND(define(
            HttpStatus.NOT_FOUND,
            "not_found",
            "The endpoint is off (leaked-key reporting without SECRET_SCANNING_PUBLIC_KEYS).",
            "No such endpoint.")),
    PAYLOAD_TOO_LARGE(define(
            HttpStatus.CONTENT_TOO_LARGE,
            "payload_too_large",
            "The request body is over 64 KiB (the webhook: 1 MiB).",
            Problems.payloadTooLargeDetail(BodyLimit.DEFAULT.bytes(), false))),
    PAYMENT_PROVIDER_UNAVAILABLE(define(
            HttpStatus.BAD_GATEWAY,
            "payment_provider_unavailable",
            "The payment provider failed or could not be reached; nothing was changed.",
            "The payment provider is unavailable; try again later.")),
    SIGNATURE_INVALID(define(
            HttpStatus.BAD_REQUEST,
            "signature_invalid",
            "The signature header is missing, malformed, stale or does not match the body; nothing changed.",
            "The signature does not match the body.")),
    TOO_MANY_REQUESTS(define(
                    HttpStatus.TOO_MANY_REQUESTS,
                    "too_many_requests",
                    "Too many requests from this client address; retry after the given delay.",
                    "Too many requests; try again in 60 s.")
            .withHeader(HttpHeaders.RETRY_AFTER, "60")),
    UNAUTHENTICATED(define(
                    HttpStatus.UNAUTHORIZED,
                    "unauthenticated",
                    "No credential, or one that is not valid.",
                    "Sign in, or send Authorization: Bearer with an API key (kv_...).")
            .withHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer")),
    UNSUPPORTED_MEDIA_TYPE(define(
            HttpStatus.UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "The request body is not application/json.",
            Problems.unsupportedMediaTypeDetail("text/plain"))),
    VALIDATION_FAILED(define(
            HttpStatus.BAD_REQUEST,
            "validation_failed",
            "Fields of the request are invalid, or one is not a field of the request; errors names each with a"
                    + " message.",
            "The request has invalid fields."));

    private final Definition definition;

    /** Names the codes of this enum that an operation answers, on the method next to its {@code @ApiContract}. */
    @Retention(RetentionPolicy.RUNTIME)
    @ProblemCodes
    public @interface Codes {
        CommonProblem[] value();
    }
}
