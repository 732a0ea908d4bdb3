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
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * An email address a person can sign up with: present, at most 254 characters once trimmed, one {@code @}, a dot in
 * the domain, no white space or control characters; the part before the {@code @} in ASCII (few mail servers take
 * anything else there), the domain as typed, internationalized or not, as long as it has an ASCII (punycode) form
 * of at most 254 characters (see {@link Addresses}).
 */
@Documented
@Retention(RUNTIME)
@Target({FIELD, PARAMETER})
@Constraint(validatedBy = EmailAddress.Validator.class)
public @interface EmailAddress {

    int MAX_LENGTH = 254;

    String message() default "must be a valid email address of at most 254 characters";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    final class Validator implements ConstraintValidator<EmailAddress, String> {

        private static final Pattern EMAIL =
                Pattern.compile("^[^@\\s\\p{Cntrl}]+@[^@\\s\\p{Cntrl}]+\\.[^@\\s\\p{Cntrl}.]+$");

        @Override
        public boolean isValid(@Nullable String value, ConstraintValidatorContext context) {
            String email = value == null ? "" : value.strip();
            if (email.isEmpty()) {
                context.disableDefaultConstraintViolation();
                context.buildConstraintViolationWithTemplate("is required").addConstraintViolation();
                return false;
            }
            if (email.length() > MAX_LENGTH || !EMAIL.matcher(email).matches()) {
                return false;
            }
            if (!email.substring(0, email.lastIndexOf('@')).chars().allMatch(c -> c < 0x80)) {
                context.disableDefaultConstraintViolation();
                context.buildConstraintViolationWithTemplate(
                                "must have only ASCII letters, digits and punctuation before the @ (the domain may"
                                        + " hold other letters, e.g. ada@exämple.com)")
                        .addConstraintViolation();
                return false;
            }
            return Addresses.ascii(email)
                    .filter(ascii -> ascii.length() <= MAX_LENGTH)
                    .isPresent();
        }
    }
}
