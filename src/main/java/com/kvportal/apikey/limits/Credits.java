package com.kvportal.apikey.limits;

import com.kvportal.common.WireName;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Objects;
import org.hibernate.validator.constraints.Range;
import org.jspecify.annotations.Nullable;

/**
 * A key's credits as a create or update sets them: what is left, and an optional refill that sets {@code remaining}
 * to {@code amount} at 00:00 UTC of its day (it does not add).
 */
@Schema(name = "Credits")
public record Credits(
        @Schema(minimum = "0", maximum = "1000000000", description = "What verifies may still spend (sum of costs).")
                @NotNull
                @Range(min = 0, max = 1_000_000_000, message = "must be between 0 and 1000000000")
                @Nullable
                Long remaining,
        @Schema(nullable = true, description = "Null: no refill.") @Valid @Nullable Refill refill) {

    public long remainingValue() {
        return Objects.requireNonNull(remaining);
    }

    public enum Interval implements WireName {
        DAY,
        MONTH;

        static Interval of(String wire) {
            return WireName.of(Interval.class, wire).orElseThrow();
        }
    }

    @Schema(name = "CreditsRefill")
    @Refill.MonthlyDay
    public record Refill(
            @Schema(minimum = "1", maximum = "1000000000", description = "What remaining is set to at each refill.")
                    @NotNull
                    @Range(min = 1, max = 1_000_000_000, message = "must be between 1 and 1000000000")
                    @Nullable
                    Long amount,
            @Schema(description = "day: every day at 00:00 UTC; month: on day_of_month at 00:00 UTC.")
                    @NotNull
                    @Nullable
                    Interval interval,
            @Schema(
                            minimum = "1",
                            maximum = "31",
                            nullable = true,
                            description = "Month only (default 1); clamped to the month's last day.")
                    @Range(min = 1, max = 31, message = "must be between 1 and 31")
                    @Nullable
                    Integer dayOfMonth) {

        public long amountValue() {
            return Objects.requireNonNull(amount);
        }

        /** The day of month a monthly refill takes, or null for a daily one. */
        public @Nullable Integer day() {
            return interval == Interval.MONTH ? (dayOfMonth == null ? 1 : dayOfMonth) : null;
        }

        /** The first refill strictly after {@code now}: 00:00 UTC of the next day, or of the (clamped) day. */
        public Instant nextAfter(Instant now) {
            LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
            if (interval == Interval.DAY) {
                return today.plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC);
            }
            int day = Objects.requireNonNull(day());
            for (int months = 0; ; months++) {
                LocalDate month = today.withDayOfMonth(1).plusMonths(months);
                LocalDate at = month.withDayOfMonth(Math.min(day, month.lengthOfMonth()));
                Instant start = at.atStartOfDay().toInstant(ZoneOffset.UTC);
                if (start.isAfter(now)) {
                    return start;
                }
            }
        }

        /** day_of_month only with a monthly refill: the error names that field. */
        @java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)
        @java.lang.annotation.Target(java.lang.annotation.ElementType.TYPE)
        @jakarta.validation.Constraint(validatedBy = MonthlyDay.Validator.class)
        @interface MonthlyDay {
            String message() default "is for a monthly refill only (interval month); leave it out for a daily one";

            Class<?>[] groups() default {};

            Class<? extends jakarta.validation.Payload>[] payload() default {};

            final class Validator implements jakarta.validation.ConstraintValidator<MonthlyDay, Refill> {
                @Override
                public boolean isValid(@Nullable Refill refill, jakarta.validation.ConstraintValidatorContext context) {
                    if (refill == null || refill.dayOfMonth() == null || refill.interval() != Interval.DAY) {
                        return true;
                    }
                    context.disableDefaultConstraintViolation();
                    context.buildConstraintViolationWithTemplate(context.getDefaultConstraintMessageTemplate())
                            .addPropertyNode("dayOfMonth")
                            .addConstraintViolation();
                    return false;
                }
            }
        }

        static Refill of(long amount, String interval, @Nullable Integer day) {
            return new Refill(amount, Interval.of(interval), day);
        }
    }
}
