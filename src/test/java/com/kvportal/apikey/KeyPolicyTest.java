package com.kvportal.apikey;

import static com.kvportal.support.Problems.assertFieldErrors;
import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.SignedInTest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The organization's key policy: read by any member, replaced by an owner or admin, and enforced at create, update
 * and roll with a refusal that names the rule and changes nothing.
 */
class KeyPolicyTest extends SignedInTest {

    private static final String POLICY = "/api/v1/key-policy";
    private static final String KEYS = "/api/v1/api-keys";

    private JsonNode policy() {
        Api.Response got = session.get(POLICY);
        assertThat(got.status()).as(got.toString()).isEqualTo(200);
        return got.json();
    }

    private void setPolicy(Map<String, Object> body) {
        Api.Response put = session.put(POLICY, body);
        assertThat(put.status()).as(put.toString()).isEqualTo(200);
    }

    private static Map<String, Object> nullable(String field, Object value) {
        Map<String, Object> body = new HashMap<>();
        body.put(field, value);
        return body;
    }

    private JsonNode keyNamed(String name) {
        for (JsonNode key : session.keys()) {
            if (key.get("name").asString().equals(name)) {
                return key;
            }
        }
        throw new AssertionError("no key named " + name);
    }

    private static Instant daysAhead(long days) {
        return Instant.now().plus(Duration.ofDays(days)).truncatedTo(ChronoUnit.SECONDS);
    }

    @Test
    void shouldAnswerTheDefaultPolicyOfANewOrganization() {
        assertThat(policy().toString()).isEqualTo("{\"max_lifetime_days\":null,\"require_allowed_ips\":false}");
    }

    @Test
    void shouldLetAnOwnerAndAnAdminReplaceThePolicyWithOmittedFieldsTakingTheirDefault() {
        Api.Response put = session.put(POLICY, Map.of("max_lifetime_days", 30, "require_allowed_ips", true));
        assertThat(put.status()).as(put.toString()).isEqualTo(200);
        assertThat(put.json().toString()).isEqualTo("{\"max_lifetime_days\":30,\"require_allowed_ips\":true}");
        assertThat(policy()).isEqualTo(put.json());

        Api admin = join("admin").api();
        Api.Response replaced = admin.put(POLICY, Map.of("max_lifetime_days", 7));
        assertThat(replaced.status()).as(replaced.toString()).isEqualTo(200);
        assertThat(policy().toString())
                .as("require_allowed_ips left out: back to false")
                .isEqualTo("{\"max_lifetime_days\":7,\"require_allowed_ips\":false}");

        assertThat(admin.put(POLICY, Map.of()).status()).isEqualTo(200);
        assertThat(policy().toString()).isEqualTo("{\"max_lifetime_days\":null,\"require_allowed_ips\":false}");
    }

    @Test
    void shouldRefuseADeveloperOrViewerAndChangeNothing() {
        setPolicy(Map.of("max_lifetime_days", 30));
        JsonNode before = policy();
        for (String role : List.of("developer", "viewer")) {
            Api member = join(role).api();
            assertThat(member.get(POLICY).json()).as(role + " reads it").isEqualTo(before);
            assertProblem(
                    member.put(POLICY, Map.of("max_lifetime_days", 1, "require_allowed_ips", true)),
                    403,
                    "insufficient_role");
            assertThat(policy()).as(role).isEqualTo(before);
        }
    }

    @Test
    void shouldRefuseValuesOutOfBoundsAndChangeNothing() {
        setPolicy(Map.of("max_lifetime_days", 30));
        JsonNode before = policy();

        assertFieldErrors(session.put(POLICY, Map.of("max_lifetime_days", 0)), "max_lifetime_days");
        assertFieldErrors(session.put(POLICY, Map.of("max_lifetime_days", 366)), "max_lifetime_days");
        assertProblem(session.put(POLICY, Map.of("max_lifetime_days", "thirty")), 400, "validation_failed");
        assertProblem(session.put(POLICY, Map.of("require_allowed_ips", "yes")), 400, "validation_failed");
        assertProblem(session.put(POLICY, Map.of("max_lifetime_days", 10, "rotate", true)), 400, "validation_failed");
        assertThat(policy()).isEqualTo(before);

        setPolicy(Map.of("max_lifetime_days", 365));
        setPolicy(Map.of("max_lifetime_days", 1));
        setPolicy(nullable("max_lifetime_days", null));
        assertThat(policy().get("max_lifetime_days").isNull()).isTrue();
    }

    @Test
    void shouldRefuseAnExpiryBeyondTheMaximumAtCreateUpdateAndRollAndChangeNothing() {
        String id = session.newKeyId("existing");
        JsonNode existing = session.keys().get(0);
        setPolicy(Map.of("max_lifetime_days", 30));

        JsonNode refused = assertProblem(
                session.post(
                        KEYS, Map.of("name", "long", "expires_at", daysAhead(31).toString())),
                400,
                "key_policy_violation");
        assertThat(refused.get("detail").asString())
                .contains("max_lifetime_days")
                .contains("30 days");
        assertThat(session.keyNames()).as("nothing created").containsExactly("existing");

        assertProblem(
                session.patch(
                        KEYS + "/" + id, Map.of("expires_at", daysAhead(31).toString())),
                400,
                "key_policy_violation");
        assertProblem(
                session.post(
                        KEYS + "/" + id + "/roll",
                        Map.of("expires_at", daysAhead(31).toString())),
                400,
                "key_policy_violation");
        assertThat(session.keys()).as("nothing changed, nothing rolled").hasSize(1);
        assertThat(session.keys().get(0)).isEqualTo(existing);

        Instant allowed = daysAhead(29);
        Api.Response created = session.post(KEYS, Map.of("name", "short", "expires_at", allowed.toString()));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(Instant.parse(created.json().get("key").get("expires_at").asString()))
                .isEqualTo(allowed);
        Api.Response updated = session.patch(KEYS + "/" + id, Map.of("expires_at", allowed.toString()));
        assertThat(updated.status()).as(updated.toString()).isEqualTo(200);
        Api.Response rolled = session.post(KEYS + "/" + id + "/roll", Map.of("expires_at", allowed.toString()));
        assertThat(rolled.status()).as(rolled.toString()).isEqualTo(201);
    }

    @Test
    void shouldShortenTheDefaultExpiryToFitTheMaximum() {
        setPolicy(Map.of("max_lifetime_days", 10));
        Instant before = Instant.now();

        Api.Response created = session.post(KEYS, Map.of("name", "default"));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        Instant expiresAt =
                Instant.parse(created.json().get("key").get("expires_at").asString());
        assertThat(expiresAt)
                .isAfter(before.plus(Duration.ofDays(10)).minusSeconds(5))
                .isBefore(Instant.now().plus(Duration.ofDays(10)).plusSeconds(1));

        Api.Response rolled =
                session.post(KEYS + "/" + created.json().get("key").get("id").asString() + "/roll", Map.of());
        assertThat(rolled.status()).as(rolled.toString()).isEqualTo(201);
        assertThat(Instant.parse(rolled.json().get("key").get("expires_at").asString()))
                .isBefore(Instant.now().plus(Duration.ofDays(10)).plusSeconds(1));
    }

    @Test
    void shouldRequireAllowedAddressesAtCreateAndUpdateWhenThePolicySaysSo() {
        String id = session.newKeyId("anywhere");
        setPolicy(Map.of("require_allowed_ips", true));

        JsonNode refused = assertProblem(session.post(KEYS, Map.of("name", "open")), 400, "key_policy_violation");
        assertThat(refused.get("detail").asString())
                .contains("require_allowed_ips")
                .contains("allowed_ips");
        assertProblem(session.post(KEYS, Map.of("name", "open", "allowed_ips", List.of())), 400, "validation_failed");
        assertThat(session.keyNames()).as("nothing created").containsExactly("anywhere");

        assertProblem(session.patch(KEYS + "/" + id, Map.of("name", "renamed")), 400, "key_policy_violation");
        assertThat(session.keyNames())
                .as("an existing key keeps working, unchanged")
                .containsExactly("anywhere");

        Api.Response created = session.post(KEYS, Map.of("name", "fenced", "allowed_ips", List.of("192.0.2.0/24")));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String fenced = created.json().get("key").get("id").asString();
        assertProblem(session.patch(KEYS + "/" + fenced, nullable("allowed_ips", null)), 400, "key_policy_violation");
        assertThat(keyNamed("fenced").get("allowed_ips").toString()).isEqualTo("[\"192.0.2.0/24\"]");
        Api.Response opened = session.patch(KEYS + "/" + id, Map.of("allowed_ips", List.of("10.0.0.1")));
        assertThat(opened.status()).as(opened.toString()).isEqualTo(200);
    }
}
