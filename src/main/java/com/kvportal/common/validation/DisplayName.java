package com.kvportal.common.validation;

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
import org.jspecify.annotations.Nullable;

/**
 * A display name (of a project, a key, an organization): present, 1 to {@link #max} characters once trimmed (as a
 * person counts them: an emoji is one), no control characters, no invisible or bidirectional ones (see {@link
 * ReadableText}). The one message says which rule failed.
 */
@Documented
@Retention(RUNTIME)
@Target({FIELD, PARAMETER})
@Constraint(validatedBy = DisplayName.Validator.class)
public @interface DisplayName {

    int max();

    /** When false, an absent name (null) is valid; a blank one never is. */
    boolean required() default true;

    String message() default "is invalid";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    final class Validator implements ConstraintValidator<DisplayName, String> {

        private int max;
        private boolean required;

        @Override
        public void initialize(DisplayName annotation) {
            max = annotation.max();
            required = annotation.required();
        }

        @Override
        public boolean isValid(@Nullable String value, ConstraintValidatorContext context) {
            String failure = failure(value);
            if (failure == null) {
                return true;
            }
            context.disableDefaultConstraintViolation();
            context.buildConstraintViolationWithTemplate(failure).addConstraintViolation();
            return false;
        }

        private @Nullable String failure(@Nullable String value) {
            if (value == null) {
                return required ? "is required" : null;
            }
            if (value.isBlank()) {
                return "is required";
            }
            String trimmed = value.strip();
            if (trimmed.codePointCount(0, trimmed.length()) > max) {
                return "must be at most " + max + " characters";
            }
            if (trimmed.codePoints().anyMatch(Character::isISOControl)) {
                return "must not contain control characters";
            }
            if (ReadableText.hasHiddenCharacters(trimmed)) {
                return ReadableText.HIDDEN_CHARACTERS;
            }
            return null;
        }
    }
}
