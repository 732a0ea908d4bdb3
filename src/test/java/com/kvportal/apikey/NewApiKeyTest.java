package com.kvportal.apikey;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.apikey.fields.KeyShape;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import jakarta.validation.ValidatorFactory;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
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

    private static NewApiKey shaped(
            @Nullable Map<String, @Nullable Object> metadata,
            @Nullable String externalId,
            @Nullable List<String> allowedIps) {
        return new NewApiKey("ci", null, null, metadata, externalId, null, allowedIps, null, null);
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
                .resolve();
        assertThat(valid.name()).isEqualTo("ci");
        assertThat(valid.permissions()).containsExactly("read", "admin");
        assertThat(valid.expiresAt()).isEqualTo(Instant.parse("2026-12-31T22:00:00Z"));

        NewApiKey.Valid defaults = key("ci", null).resolve();
        assertThat(defaults.permissions()).containsExactly("write");
        assertThat(defaults.expiresAt())
                .as("left to the default, which a key policy may shorten")
                .isNull();
        assertThat(defaults.shape()).isEqualTo(KeyShape.DEFAULT);
    }

    @Test
    void metadataHoldsAtMost50ScalarPropertiesOfAtMost4KiB() {
        Map<String, @Nullable Object> fifty = new LinkedHashMap<>();
        for (int i = 0; i < 50; i++) {
            fifty.put("k" + i, i % 2 == 0 ? "v" : null);
        }
        assertThat(errors(shaped(fifty, null, null))).isEmpty();
        Map<String, @Nullable Object> fiftyOne = new LinkedHashMap<>(fifty);
        fiftyOne.put("one-more", true);
        assertThat(errors(shaped(fiftyOne, null, null)))
                .containsOnly(Map.entry("metadata", "must have at most 50 properties; it has 51"));
        assertThat(errors(shaped(Map.of("nested", Map.of("a", 1)), null, null)))
                .containsOnly(Map.entry(
                        "metadata",
                        "property 'nested' must be a string, number, boolean or null, not an object or array"));
        assertThat(errors(shaped(Map.of("list", List.of(1)), null, null))).containsKey("metadata");
        // {"v":"..."} is 8 bytes around the value: 4,088 characters make exactly 4 KiB
        assertThat(errors(shaped(Map.of("v", "x".repeat(4088)), null, null))).isEmpty();
        assertThat(errors(shaped(Map.of("v", "x".repeat(4089)), null, null)))
                .containsOnly(Map.entry("metadata", "must be at most 4096 bytes as JSON; it is 4097"));
        assertThat(errors(shaped(Map.of("n", 1.5, "b", false, "s", "é"), null, null)))
                .isEmpty();
    }

    @Test
    void anExternalIdIs1To255CharactersOfItsAlphabet() {
        assertThat(errors(shaped(null, "user_1.a:b@c/d-e", null))).isEmpty();
        assertThat(errors(shaped(null, "x".repeat(255), null))).isEmpty();
        for (String bad : List.of("", "x".repeat(256), "has space", "ümlaut", "a+b", "a\nb")) {
            assertThat(errors(shaped(null, bad, null)))
                    .as(bad)
                    .containsOnly(
                            Map.entry("externalId", "must be 1-255 characters of A-Z a-z 0-9 . _ : @ / - (or null)"));
        }
    }

    @Test
    void allowedAddressesAre1To100AddressesOrBlocks() {
        List<String> hundred = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            hundred.add("10.0." + i + ".0/24");
        }
        assertThat(errors(shaped(null, null, hundred))).isEmpty();
        List<String> hundredOne = new ArrayList<>(hundred);
        hundredOne.add("192.0.2.1");
        assertThat(errors(shaped(null, null, hundredOne)))
                .containsOnly(Map.entry(
                        "allowedIps",
                        "must hold 1-100 addresses or CIDR blocks (it holds 101); null allows every address"));
        assertThat(errors(shaped(null, null, List.of()))).containsKey("allowedIps");
        assertThat(errors(shaped(null, null, List.of("10.0.0.1/8"))))
                .containsOnly(Map.entry(
                        "allowedIps",
                        "'10.0.0.1/8' has bits set beyond its /8 prefix: send the network 10.0.0.0/8, or the single"
                                + " address without a prefix"));
        for (String bad : List.of("example.com", "10.0.0.256", "10.0.0.0/33", "2001:db8::/129", "01.2.3.4", "1.2.3")) {
            assertThat(errors(shaped(null, null, List.of(bad)))).as(bad).containsKey("allowedIps");
        }
    }
}
