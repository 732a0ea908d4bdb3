package com.kvportal.common.web;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an annotation that names the {@link ProblemCode}s an operation answers: each feature's enum nests one, e.g.
 * {@code @ApiKeyProblem.Codes({ApiKeyProblem.API_KEY_NOT_FOUND})}, whose {@code value()} is an array of its
 * constants. The OpenAPI document reads every such annotation of an operation (Java annotations cannot take
 * interface-typed members, so each enum has its own).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.ANNOTATION_TYPE)
public @interface ProblemCodes {}
