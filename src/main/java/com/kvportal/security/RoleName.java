package com.kvportal.security;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import java.util.List;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * A field that names a {@link Role} as the API spells it, derived from the enum (no list of roles written by hand):
 * another value answers {@code must be one of owner, admin, …}, and the API document states the roles as the field's
 * enum and pattern. A null value passes (pair it with {@code @Required}).
 */
@Documented
@Retention(RUNTIME)
@Target({FIELD, PARAMETER})
@Constraint(validatedBy = RoleName.Check.class)
public @interface RoleName {

    /** Roles the field may not name: an invitation never offers {@code owner}. */
    Role[] except() default {};

    String message() default "";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    final class Check implements ConstraintValidator<RoleName, String> {

        private List<String> allowed = List.of();

        @Override
        public void initialize(RoleName field) {
            allowed = Role.wiresExcept(field.except());
        }

        @Override
        public boolean isValid(@Nullable String value, ConstraintValidatorContext context) {
            if (value == null || allowed.contains(value)) {
                return true;
            }
            context.disableDefaultConstraintViolation();
            context.buildConstraintViolationWithTemplate(
                            "must be one of " + allowed.stream().collect(Collectors.joining(", ")))
                    .addConstraintViolation();
            return false;
        }
    }
}
