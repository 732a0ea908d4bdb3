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
import org.hibernate.validator.constraints.CodePointLength;

/**
 * A password a customer chooses (at signup, a reset, a change): present, 12 to 128 characters (as a person counts
 * them: an emoji is one). The one message states the rule, whichever part of it failed.
 */
@Documented
@Retention(RUNTIME)
@Target({FIELD, PARAMETER})
@Constraint(validatedBy = {})
@NotNull
@CodePointLength(min = 12, max = 128)
@ReportAsSingleViolation
public @interface NewPassword {

    String message() default "must be 12 to 128 characters";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}
