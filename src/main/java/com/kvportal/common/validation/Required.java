package com.kvportal.common.validation;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import jakarta.validation.ReportAsSingleViolation;
import jakarta.validation.constraints.NotNull;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * A field the request must carry: a missing (null) value answers {@code is required}, and the API document lists the
 * field as required (its model resolver reads a constraint composed of {@code @NotNull} as {@code @NotNull}).
 */
@Documented
@Retention(RUNTIME)
@Target({FIELD, PARAMETER})
@Constraint(validatedBy = {})
@NotNull
@ReportAsSingleViolation
public @interface Required {

    String message() default "is required";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}
