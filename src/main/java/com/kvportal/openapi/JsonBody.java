package com.kvportal.openapi;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The operation's request body, for a handler that reads it itself (as bytes or a JSON tree, to answer its own
 * problems), so that its signature does not show the type: required, {@code application/json}, of this type (a
 * record written for the document, or the type the handler parses). {@link ApiContractCustomizer} states it.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface JsonBody {

    /** The body's type, or its elements' with {@link #list()}. */
    Class<?> value();

    /** Whether the body is a JSON array of {@link #value()}. */
    boolean list() default false;
}
