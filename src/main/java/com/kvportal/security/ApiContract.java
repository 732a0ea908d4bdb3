package com.kvportal.security;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.core.annotation.AliasFor;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ResponseStatus;

/**
 * What an operation answers and who may call it: the security layer derives the endpoint's rule from it at start-up
 * ({@link EndpointRules}), and the OpenAPI document states it (see {@code com.kvportal.openapi}). Goes with the operation's summary and description in {@code openapi/operations.yaml}, under its
 * operationId (the handler method's name); the problem codes of
 * the operation's outcomes, beyond those its shape and credentials imply, are named by each feature's
 * {@code @...Problem.Codes} (see {@link com.kvportal.common.web.ProblemCodes}).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@ResponseStatus
public @interface ApiContract {

    /**
     * The status of success: 200, 201 (created), 202 (accepted), 204 (no body), 303 (a redirect, no body). It is the
     * status the handler answers too (as {@link ResponseStatus}): a handler returns its body, or nothing for 204, and
     * builds a {@code ResponseEntity} only for headers.
     */
    @AliasFor(annotation = ResponseStatus.class, attribute = "code")
    HttpStatus success() default HttpStatus.OK;

    /** What the success response means, when the status alone does not say it. */
    String successDescription() default "";

    /** The credentials the operation accepts, any one of them; empty: a public call that needs none. */
    Credential[] credentials();

    /**
     * With {@link Credential#PORTAL} (exactly one, required there): what the caller's role in the current organization
     * must allow, read from the membership on every request (an API key with {@code admin}: its creator's
     * membership, on every portal call, whatever the permission). Implies 403 {@code insufficient_role}.
     */
    Permission[] permission() default {};

    /**
     * With {@link Credential#PORTAL}: the call needs a verified email address (the signed-in customer's; an API key:
     * its creator's), as an operation that gives an account reach beyond itself does (keys, invitations, webhook
     * endpoints, organizations, two-step login, checkout). Checked after the role. Implies 403 {@code
     * email_unverified}.
     */
    boolean verifiedEmail() default false;

    /**
     * The most KiB a request body may hold; more answers 413 {@code payload_too_large} before anything reads it. A
     * payload another system sends in one piece (the payment provider's events, a storage backend's usage report)
     * declares more than the default.
     */
    int maxBodyKiB() default 64;
}
