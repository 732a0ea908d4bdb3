package com.kvportal.apikey.fields;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.ElementType.TYPE_USE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import com.kvportal.apikey.limits.RateLimit;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;
import org.jspecify.annotations.Nullable;

/**
 * A field of the key bodies (create, update, roll, verify) that its {@link Rule} checks, as a constraint, so that all
 * errors of a request are reported at once, each naming its field. Every rule lets an absent field (null, or an
 * update's empty {@code Optional}) through and words its own message; the type that owns the field owns the rule.
 */
@Retention(RUNTIME)
@Target({FIELD, PARAMETER, TYPE_USE})
@Constraint(validatedBy = Checked.Validator.class)
public @interface Checked {

    Rule value();

    /** Never shown: each rule words its refusal. */
    String message() default "is invalid";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    /** The rules, each what is wrong with a value sent (never null), or empty when it is valid. */
    enum Rule {
        /** {@link KeyFields#permissionsRefusal} */
        PERMISSIONS((value, now) -> KeyFields.permissionsRefusal((List<?>) value)),
        /** {@link KeyFields#expiryRefusal} */
        EXPIRY((value, now) -> KeyFields.expiryRefusal((String) value, now)),
        /** {@link KeyFields#metadataRefusal} */
        METADATA((value, now) -> KeyFields.metadataRefusal((Map<?, ?>) value)),
        /** {@link KeyFields#externalIdRefusal} */
        EXTERNAL_ID((value, now) -> KeyFields.externalIdRefusal(value)),
        /** {@link KeyFields#allowedIpsRefusal} */
        ALLOWED_IPS((value, now) -> KeyFields.allowedIpsRefusal((List<?>) value)),
        /** {@link RateLimit#listRefusal} */
        RATE_LIMITS((value, now) -> RateLimit.listRefusal((List<?>) value)),
        /** {@link IpBlock#clientRefusal} */
        CLIENT_IP((value, now) -> IpBlock.clientRefusal((String) value));

        private final Check check;

        Rule(Check check) {
            this.check = check;
        }
    }

    /** One rule's check, given the validation clock's now (which the expiry needs). */
    @FunctionalInterface
    interface Check {
        Optional<String> refusal(Object value, Instant now);
    }

    final class Validator implements ConstraintValidator<Checked, Object> {

        private Rule rule = Rule.PERMISSIONS;

        @Override
        public void initialize(Checked checked) {
            rule = checked.value();
        }

        @Override
        public boolean isValid(@Nullable Object sent, ConstraintValidatorContext context) {
            // an update's Optional: Bean Validation does not unwrap an Optional of a list for a list's validator
            Object value = sent instanceof Optional<?> optional ? optional.orElse(null) : sent;
            if (value == null) {
                return true;
            }
            Optional<String> refusal = rule.check.refusal(
                    value, context.getClockProvider().getClock().instant());
            if (refusal.isEmpty()) {
                return true;
            }
            // the refusal may quote the value sent: a message parameter, never part of the template (no interpolation
            // of input)
            context.disableDefaultConstraintViolation();
            context.unwrap(HibernateConstraintValidatorContext.class)
                    .addMessageParameter("refusal", refusal.get())
                    .buildConstraintViolationWithTemplate("{refusal}")
                    .addConstraintViolation();
            return false;
        }
    }
}
