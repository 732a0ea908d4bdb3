package com.kvportal.apikey;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import jakarta.validation.ValidatorFactory;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** A create request's rules as plain rules, at a fixed time: every field checked, one message each. */
class NewApiKeyTest {

    private static final Instant NOW = Instant.parse("2026-11-23T10:15:30Z");
    private static final ValidatorFactory FACTORY = Validation.byDefaultProvider()
            .configure()
            .clockProvider(() -> Clock.fixed(NOW, ZoneOffset.UTC))
            .buildValidatorFactory();
    private static final Validator VALIDATOR = FACTORY.getValidator();

    @AfterAll
    static void close() {
        FACTORY.close();
    }

    private static Map<String, String> errors(NewApiKey request) {
        return VALIDATOR.validate(request).stream()
                .collect(Collectors.toMap(v -> v.getPropertyPath().toString(), ConstraintViolation::getMessage));
    }

    private static NewApiKey key(String name, String expiresAt, String... permissions) {
        return new NewApiKey(name, permissions.length == 0 ? null : Arrays.asList(permissions), expiresAt);
    }

    @Test
    void aNameAloneIsAValidRequest() {
        assertThat(errors(key("ci", null))).isEmpty();
    }

    @Test
    void everyFieldIsCheckedAtOnce() {
        assertThat(errors(new NewApiKey(null, List.of(), "tomorrow")))
                .containsOnly(
                        Map.entry("name", "is required"),
                        Map.entry("permissions", "must contain at least one of read, write, admin"),
                        Map.entry(
                                "expiresAt",
                                "must be an ISO 8601 timestamp with an offset, e.g. 2027-01-31T00:00:00Z"));
    }

    @Test
    void anUnknownPermissionIsNamedAndNeverInterpolated() {
        assertThat(errors(key("ci", null, "read", "root")))
                .containsOnly(Map.entry("permissions", "unknown permission 'root'; allowed: read, write, admin"));
        assertThat(errors(key("ci", null, "${1+1}{name}")))
                .containsOnly(
                        Map.entry("permissions", "unknown permission '${1+1}{name}'; allowed: read, write, admin"));
        assertThat(errors(key("ci", null, (String) null)))
                .containsOnly(Map.entry("permissions", "unknown permission 'null'; allowed: read, write, admin"));
    }

    @Test
    void theExpiryLiesInTheFutureAndAtMost365DaysAheadOfTheClock() {
        assertThat(errors(key("ci", "2026-11-23T10:15:30Z")))
                .containsOnly(Map.entry("expiresAt", "must be in the future"));
        assertThat(errors(key("ci", "2026-11-23T10:15:31Z"))).isEmpty();
        assertThat(errors(key("ci", "2027-11-23T10:15:30Z"))).isEmpty();
        assertThat(errors(key("ci", "2027-11-23T10:15:31Z")))
                .containsOnly(Map.entry("expiresAt", "must be at most 365 days ahead"));
        assertThat(errors(key("ci", "2027-01-01T00:00:00+02:00"))).isEmpty();
        assertThat(errors(key("ci", "2027-01-01T00:00:00"))).containsKey("expiresAt");
    }

    @Test
    void aValidRequestResolvesToATrimmedNameEachPermissionOnceAndWholeSeconds() {
        NewApiKey.Valid valid = key("  ci  ", "2027-01-01T00:00:00.999+02:00", "read", "admin", "read")
                .resolve(NOW);
        assertThat(valid.name()).isEqualTo("ci");
        assertThat(valid.permissions()).containsExactly("read", "admin");
        assertThat(valid.expiresAt()).isEqualTo(Instant.parse("2026-12-31T22:00:00Z"));

        NewApiKey.Valid defaults = key("ci", null).resolve(NOW);
        assertThat(defaults.permissions()).containsExactly("write");
        assertThat(defaults.expiresAt()).isEqualTo(NOW.plus(NewApiKey.DEFAULT_LIFETIME));
    }
}
