package com.kvportal.security;

import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.SignedInTest;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A key never holds more than its creator may do, and an admin key acts at most as its creator does now: on the real
 * stack, with members who joined as people do.
 */
class LeastPrivilegeTest extends SignedInTest {

    private long keyRows() {
        return count("select count(*) from api_keys where organization_id = ?", account.organizationId());
    }

    private long audited(String action) {
        return count(
                "select count(*) from audit_events where organization_id = ? and action = ?",
                account.organizationId(),
                action);
    }

    private Instant expiryOf(String keyId) {
        return single(Instant.class, "select expires_at from api_keys where id = ?::uuid", keyId);
    }

    private JsonNode listItem(Api api, String keyId) {
        for (JsonNode key : api.keys()) {
            if (key.get("id").asString().equals(keyId)) {
                return key;
            }
        }
        throw new AssertionError("no key " + keyId + " in the list");
    }

    private Api.Response promote(Member member, String role) {
        return session.patch("/api/v1/members/" + member.customerId(), Map.of("role", role));
    }

    /** A key with admin that the member creates (while an admin), as its holder uses it. */
    private Api adminKeyOf(Member member, String name) {
        return Api.withKey(baseUrl(), member.api().createKey(name, "admin"));
    }

    // --- a key never holds more than its creator may do ---

    @Test
    void shouldNotLetADeveloperPromoteThemselfThroughAnAdminKey() {
        Member developer = join("developer");
        long keys = keyRows();
        long created = audited("api_key.created");

        Api.Response key =
                developer.api().post("/api/v1/api-keys", Map.of("name", "ladder", "permissions", List.of("admin")));

        JsonNode problem = assertProblem(key, 403, "insufficient_role");
        assertThat(problem.get("detail").asString()).contains("owner or admin");
        assertThat(keyRows()).isEqualTo(keys);
        assertThat(audited("api_key.created")).isEqualTo(created);
        // the second step of the attack, had the first worked, with whatever key the developer may hold
        Api ownKey = Api.withKey(baseUrl(), developer.api().createKey("plain", "read", "write"));
        assertProblem(
                ownKey.patch("/api/v1/members/" + developer.customerId(), Map.of("role", "admin")),
                403,
                "insufficient_permissions");
        assertThat(roleOf(developer.customerId())).isEqualTo("developer");
    }

    @Test
    void shouldRefuseADeveloperEveryChangeOfAnAdminKeyButItsRevocation() {
        Member developer = join("developer");
        String ownersKey = session.newKeyId("owner's automation", "admin");
        Instant expiry = expiryOf(ownersKey);
        long keys = keyRows();

        assertProblem(
                developer.api().post("/api/v1/api-keys/" + ownersKey + "/roll", Map.of("grace_seconds", 0)),
                403,
                "insufficient_role");
        assertProblem(
                developer.api().patch("/api/v1/api-keys/" + ownersKey, Map.of("name", "mine now")),
                403,
                "insufficient_role");
        assertProblem(
                developer.api().patch("/api/v1/api-keys/" + ownersKey, Map.of("permissions", List.of("read"))),
                403,
                "insufficient_role");
        String ownKey = developer.api().newKeyId("developer's", "write");
        assertProblem(
                developer.api().patch("/api/v1/api-keys/" + ownKey, Map.of("permissions", List.of("write", "admin"))),
                403,
                "insufficient_role");

        assertThat(keyRows()).isEqualTo(keys + 1);
        assertThat(expiryOf(ownersKey)).isEqualTo(expiry);
        assertThat(single(Boolean.class, "select revoked_at is null from api_keys where id = ?::uuid", ownersKey))
                .isTrue();
        JsonNode item = listItem(session, ownersKey);
        assertThat(item.get("name").asString()).isEqualTo("owner's automation");
        assertThat(item.get("permissions").toString()).contains("admin");
        assertThat(listItem(session, ownKey).get("permissions").toString()).doesNotContain("admin");
        assertThat(audited("api_key.rolled") + audited("api_key.updated")).isZero();

        // what a developer may do with keys stays: make, change and roll keys without admin, revoke any key
        Api.Response rolled = developer.api().post("/api/v1/api-keys/" + ownKey + "/roll", Map.of());
        assertThat(rolled.status()).as(rolled.toString()).isEqualTo(201);
        assertThat(developer.api().delete("/api/v1/api-keys/" + ownersKey).status())
                .isEqualTo(204);
    }

    @Test
    void shouldLetOwnersAndAdminsGiveAKeyAdminAndNameTheCreator() {
        Member admin = join("admin");

        Api.Response created =
                admin.api().post("/api/v1/api-keys", Map.of("name", "by the admin", "permissions", List.of("admin")));

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.json().get("key").get("created_by").asString())
                .isEqualTo(admin.customerId().toString());
        String keyId = created.json().get("key").get("id").asString();
        assertThat(listItem(session, keyId).get("created_by").asString())
                .isEqualTo(admin.customerId().toString());
        String ownersKey = session.newKeyId("owner's", "read");
        assertThat(listItem(admin.api(), ownersKey).get("created_by").asString())
                .isEqualTo(account.customerId().toString());
        // a roll makes a key of whoever rolled it; an admin key rolls on its creator's behalf
        Api.Response rolled = Api.withKey(
                        baseUrl(), created.json().get("api_key").asString())
                .post("/api/v1/api-keys/" + ownersKey + "/roll", Map.of());
        assertThat(rolled.status()).as(rolled.toString()).isEqualTo(201);
        assertThat(rolled.json().get("key").get("created_by").asString())
                .isEqualTo(admin.customerId().toString());
    }

    // --- an admin key acts at most as its creator does now ---

    @Test
    void shouldRefuseTheKeyOfADemotedCreatorFromTheNextRequestAndKeepVerifyWorking() {
        Member admin = join("admin");
        Api key = adminKeyOf(admin, "automation");
        assertThat(key.get("/api/v1/api-keys").status()).isEqualTo(200);

        assertThat(promote(admin, "developer").status()).isEqualTo(200);

        JsonNode problem = assertProblem(key.get("/api/v1/api-keys"), 403, "insufficient_role");
        assertThat(problem.get("detail").asString()).contains("no longer an owner or admin");
        assertProblem(key.get("/api/v1/session"), 403, "insufficient_role");
        assertProblem(
                key.patch("/api/v1/members/" + admin.customerId(), Map.of("role", "admin")), 403, "insufficient_role");
        assertProblem(key.post("/api/v1/api-keys", Map.of("name", "another")), 403, "insufficient_role");
        assertThat(roleOf(admin.customerId())).isEqualTo("developer");
        Api.Response verified = key.post("/api/v1/api-keys/verify");
        assertThat(verified.status()).as(verified.toString()).isEqualTo(200);

        // the role is read now: promoted again, the key acts as an admin again
        assertThat(promote(admin, "admin").status()).isEqualTo(200);
        assertThat(key.get("/api/v1/api-keys").status()).isEqualTo(200);
    }

    @Test
    void shouldRefuseTheAdminKeyOfARemovedOrDepartedCreatorButLetItRevokeItself() {
        Member removed = join("admin");
        Member departed = join("admin");
        Api removedKey = adminKeyOf(removed, "removed's");
        Api departedKey = adminKeyOf(departed, "departed's");

        assertThat(session.delete("/api/v1/members/" + removed.customerId()).status())
                .isEqualTo(204);
        assertThat(departed.api()
                        .delete("/api/v1/members/" + departed.customerId())
                        .status())
                .isEqualTo(204);

        assertProblem(removedKey.get("/api/v1/members"), 403, "insufficient_role");
        assertProblem(departedKey.get("/api/v1/members"), 403, "insufficient_role");
        assertProblem(
                removedKey.post("/api/v1/invitations", Map.of("email", removed.email(), "role", "owner")),
                403,
                "insufficient_role");
        assertThat(removedKey.post("/api/v1/api-keys/verify").status()).isEqualTo(200);
        String departedKeyId = session.keyId("departed's");
        assertThat(departedKey.delete("/api/v1/api-keys/" + departedKeyId).status())
                .isEqualTo(204);
    }

    @Test
    void shouldLetAnOwnersAdminKeyActAsAnAdminOnly() {
        Api key = Api.withKey(baseUrl(), session.createKey("owner's automation", "admin"));
        Member other = join("developer");

        assertThat(key.patch("/api/v1/members/" + other.customerId(), Map.of("role", "admin"))
                        .status())
                .isEqualTo(200);
        assertProblem(
                key.patch("/api/v1/members/" + other.customerId(), Map.of("role", "owner")), 403, "insufficient_role");
        assertThat(sessionRole(key)).isEqualTo("admin");
    }
}
