package com.kvportal.common.openapi;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * What an operation answers and who may call it, as the OpenAPI document states it (see the package's
 * documentation). Goes with springdoc's {@code @Operation(operationId, summary, description)}; the problem codes of
 * the operation's outcomes, beyond those its shape and credentials imply, are named by each feature's
 * {@code @...Problem.Codes} (see {@link com.kvportal.common.web.ProblemCodes}).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface ApiContract {

    /** The status of success: 200, 201 (created), 204 (no body), 303 (a redirect, no body). */
    int success() default 200;

    /** What the success response means, when the status alone does not say it. */
    String successDescription() default "";

    /** The credentials the operation accepts, any one of them; empty: a public call that needs none. */
    Credential[] credentials();
}
