package com.kvportal.verifier;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class AnsweredTest {

    private static final String KEY = "11111111-2222-4333-8444-555555555555";
    private static final String ORGANIZATION = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee";

    private static KeyVerifier.Answered answered(int status, String body) {
        return KeyVerifier.Answered.of(new ServiceCalls.Answer(status, Json.object(body)));
    }

    private static String valid(String extra) {
        return """
                {"key_id":"%s","customer_id":"c1111111-2222-4333-8444-555555555555",
                 "project_id":"b1111111-2222-4333-8444-555555555555","organization_id":"%s",
                 "permissions":["read","write"],"tier":"pro",
                 "storage":{"used_bytes":1,"allowance_bytes":2,"write_allowed":false,"reason":"storage_cap"}%s}"""
                .formatted(KEY, ORGANIZATION, extra);
    }

    @Test
    void aCacheableAnswerIsKeptWithItsKeyAndOrganization() {
        KeyVerifier.Answered answered = answered(200, valid(",\"cacheable\":true,\"allowed_ips\":null"));
        Verification verification = answered.verification();
        assertThat(verification.valid()).isTrue();
        assertThat(verification.code()).isNull();
        assertThat(verification.keyId()).isEqualTo(UUID.fromString(KEY));
        assertThat(verification.organizationId()).isEqualTo(UUID.fromString(ORGANIZATION));
        assertThat(verification.permissions()).containsExactly("read", "write");
        assertThat(verification.permits("write")).isTrue();
        assertThat(verification.permits("admin")).isFalse();
        assertThat(verification.tier()).isEqualTo("pro");
        assertThat(verification.writeAllowed()).isFalse();
        assertThat(answered.entry().keyId()).isEqualTo(UUID.fromString(KEY));
        assertThat(answered.entry().organizationId()).isEqualTo(UUID.fromString(ORGANIZATION));
        assertThat(answered.entry().allowed()).isNull();
        // without expires_at in the answer: asked again within 10 s, as the key may expire meanwhile
        assertThat(answered.entry().askAgainAtMillis())
                .isBetween(
                        System.currentTimeMillis() + KeyVerifier.ASK_AGAIN_WITHOUT_EXPIRY_MILLIS - 5_000,
                        System.currentTimeMillis() + KeyVerifier.ASK_AGAIN_WITHOUT_EXPIRY_MILLIS);
    }

    @Test
    void anAnswerNotMarkedCacheableIsNeverKept() {
        assertThat(answered(200, valid(",\"cacheable\":false")).entry()).isNull();
        assertThat(answered(200, valid("")).entry())
                .as("a service without the field")
                .isNull();
    }

    @Test
    void allowedAddressesAndExpiryTravelWithTheEntry() {
        Instant expires = Instant.now().plusSeconds(3_600);
        KeyVerifier.Answered answered = answered(
                200,
                valid(",\"cacheable\":true,\"allowed_ips\":[\"203.0.113.0/24\"],\"expires_at\":\"" + expires + "\""));
        assertThat(answered.entry().allowed().allow("203.0.113.5")).isTrue();
        assertThat(answered.entry().allowed().allow("203.0.114.5")).isFalse();
        assertThat(answered.entry().askAgainAtMillis()).isEqualTo(expires.toEpochMilli() - 1_000);
    }

    @Test
    void unknownAndRevokedKeysAreKeptAsRefusedOthersAreAskedEveryTime() {
        for (String code : List.of("invalid_api_key", "api_key_revoked")) {
            KeyVerifier.Answered answered = answered(401, "{\"status\":401,\"code\":\"" + code + "\"}");
            assertThat(answered.verification().valid()).isFalse();
            assertThat(answered.verification().code()).isEqualTo(code);
            assertThat(answered.verification().permissions()).isNull();
            assertThat(answered.entry().answer(null)).isSameAs(answered.verification());
        }
        for (Map.Entry<Integer, String> refusal : Map.of(
                        401, "api_key_expired",
                        403, "ip_not_allowed",
                        429, "rate_limited",
                        503, "database_unavailable")
                .entrySet()) {
            KeyVerifier.Answered answered = answered(refusal.getKey(), "{\"code\":\"" + refusal.getValue() + "\"}");
            assertThat(answered.verification().code()).isEqualTo(refusal.getValue());
            assertThat(answered.entry()).as(refusal.getValue()).isNull();
        }
        assertThat(answered(401, "{\"code\":\"api_key_disabled\"}").entry()).isNull();
    }

    @Test
    void anAnswerWithoutAProblemCodeIsRefusedByItsStatus() {
        KeyVerifier.Answered answered = KeyVerifier.Answered.of(new ServiceCalls.Answer(502, null));
        assertThat(answered.verification().code()).isEqualTo("http_502");
        assertThat(answered.entry()).isNull();
    }
}
