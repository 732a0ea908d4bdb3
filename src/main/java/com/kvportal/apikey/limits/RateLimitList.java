package com.kvportal.apikey.limits;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** A key's rate limits: absent, or at most 5, each with a name of its own. */
@Retention(RUNTIME)
@Target({FIELD, PARAMETER})
@Constraint(validatedBy = RateLimitList.Validator.class)
public @interface RateLimitList {

    String message() default "must hold at most " + RateLimit.MAX_PER_KEY + " rate limits, each with a name of its own";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    final class Validator implements ConstraintValidator<RateLimitList, List<RateLimit>> {
        @Override
        public boolean isValid(@Nullable List<RateLimit> ratelimits, ConstraintValidatorContext context) {
            if (ratelimits == null) {
                return true;
            }
            if (ratelimits.size() > RateLimit.MAX_PER_KEY) {
                return false;
            }
            Set<String> names = new HashSet<>();
            for (RateLimit limit : ratelimits) {
                if (limit == null) {
                    return false;
                }
                if (limit.name() != null && !names.add(limit.name())) {
                    return false;
                }
            }
            return true;
        }
    }
}
