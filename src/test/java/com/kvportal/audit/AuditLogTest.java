package com.kvportal.audit;

import static com.kvportal.support.Problems.assertFieldErrors;
import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

class AuditLogTest extends IntegrationTest {

    static final String PASSWORD = "correct horse battery";

    @Autowired
    AuditRetention retention;

    @Test
    void shouldRecordEveryAccountAndKeyActionWithActorTargetProjectAddressAndUserAgent() {
        Api ada = api();
        Api.Account account = ada.signup();
        String adminKey = ada.createKey("automation", "admin");
        String automationId = ada.keyId("automation");
        Api automation = Api.withKey(baseUrl(), adminKey);
        automation.createKey("billing-worker", "read");
        String keyId = ada.keyId("billing-worker");
        ada.patch("/api/v1/api-keys/" + keyId, Map.of("name", "billing-worker", "permissions", List.of("write")));
        String rolledId = ada.post("/api/v1/api-keys/" + keyId + "/roll", Map.of("grace_seconds", 60))
                .json()
                .get("key")
                .get("id")
                .asString();
        ada.delete("/api/v1/api-keys/" + rolledId);
        String projectId = ada.createProject("staging").toString();
        ada.post("/api/v1/auth/logout");
        api().post("/api/v1/auth/login", Map.of("email", account.email(), "password", "not the password"));
        api().post("/api/v1/auth/login", Map.of("email", "nobody-" + account.email(), "password", PASSWORD));
        Api again = api();
        again.post("/api/v1/auth/login", Map.of("email", account.email(), "password", PASSWORD));

        List<JsonNode> events = all(again);

        assertThat(events.stream().map(e -> e.get("action").asString()))
                .containsExactly(
                        "customer.logged_in",
                        "customer.login_failed",
                        "customer.logged_out",
                        "project.created",
                        "api_key.revoked",
                        "api_key.rolled",
                        "api_key.updated",
                        "api_key.created",
                        "api_key.created",
                        "customer.email_verified",
                        "customer.signed_up");
        for (JsonNode event : events) {
            assertThat(event.get("ip").asString()).isEqualTo("127.0.0.1");
            assertThat(event.get("user_agent").asString()).startsWith("Java-http-client");
            assertThat(UUID.fromString(event.get("id").asString())).isNotNull();
            assertThat(event.get("occurred_at").asString()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
        }
        JsonNode customer = party("customer", account.customerId().toString(), account.email());
        JsonNode signedUp = events.get(10);
        assertThat(signedUp.get("actor")).isEqualTo(customer);
        assertThat(signedUp.get("target")).isEqualTo(customer);
        assertThat(signedUp.get("project_id").asString())
                .isEqualTo(account.projectId().toString());

        JsonNode createdByKey = events.get(7);
        assertThat(createdByKey.get("actor")).isEqualTo(party("api_key", automationId, "automation"));
        assertThat(createdByKey.get("target")).isEqualTo(party("api_key", keyId, "billing-worker"));
        assertThat(createdByKey.get("details").get("permissions").toString()).isEqualTo("[\"read\"]");

        JsonNode updated = events.get(6);
        assertThat(updated.get("actor")).isEqualTo(customer);
        assertThat(updated.get("details").get("changes").propertyNames()).containsExactly("permissions");
        assertThat(updated.get("details")
                        .get("changes")
                        .get("permissions")
                        .get("from")
                        .toString())
                .isEqualTo("[\"read\"]");
        assertThat(updated.get("details")
                        .get("changes")
                        .get("permissions")
                        .get("to")
                        .toString())
                .isEqualTo("[\"write\"]");

        JsonNode rolled = events.get(5);
        assertThat(rolled.get("target").get("id").asString()).isEqualTo(rolledId);
        assertThat(rolled.get("details").get("previous_key_id").asString()).isEqualTo(keyId);
        assertThat(rolled.get("details").get("grace_seconds").asLong()).isEqualTo(60);

        assertThat(events.get(4).get("target")).isEqualTo(party("api_key", rolledId, "billing-worker"));
        assertThat(events.get(3).get("target")).isEqualTo(party("project", projectId, "staging"));
        assertThat(events.get(3).get("project_id").asString()).isEqualTo(projectId);
        assertThat(events.get(2).get("actor")).isEqualTo(customer);
        assertThat(events.get(1).get("actor")).isEqualTo(customer);
        assertThat(events.get(1).get("details").get("reason").asString()).isEqualTo("invalid_credentials");
        assertThat(events.get(0).get("actor")).isEqualTo(customer);
    }

    @Test
    void shouldRecordNothingForAChangeThatFailedOrChangedNothing() {
        Api ada = signedUp();
        String id = ada.newKeyId("kept");
        ada.delete("/api/v1/api-keys/" + id);
        int before = all(ada).size();

        ada.post("/api/v1/api-keys", Map.of("name", ""));
        ada.patch("/api/v1/api-keys/" + id, Map.of("name", "revoked keys cannot change"));
        ada.post("/api/v1/api-keys/" + id + "/roll");
        ada.delete("/api/v1/api-keys/" + id);
        ada.post("/api/v1/projects", Map.of("name", " "));

        assertThat(all(ada)).hasSize(before);
    }

    @Test
    void shouldLeaveNeitherChangeNorRecordWhenTheRecordCannotBeWritten() {
        Api ada = api();
        Api.Account account = ada.signup();
        String doomed = "doomed-" + UUID.randomUUID();
        jdbc.sql(
                        """
                        create or replace function refuse_doomed() returns trigger language plpgsql as $$
                        begin
                            if new.target_label like 'doomed-%' then raise exception 'audit write refused'; end if;
                            return new;
                        end $$""")
                .update();
        jdbc.sql("create trigger refuse_doomed before insert on audit_events for each row execute function"
                        + " refuse_doomed()")
                .update();
        try {
            Api.Response response = ada.post("/api/v1/api-keys", Map.of("name", doomed));
            assertThat(response.status()).isEqualTo(500);
        } finally {
            jdbc.sql("drop trigger refuse_doomed on audit_events").update();
        }

        assertThat(count("select count(*) from api_keys where name = ?", doomed))
                .isZero();
        assertThat(ada.keys().size()).isZero();
        assertThat(count(
                        "select count(*) from audit_events where organization_id = ? and action not in (?, ?)",
                        account.organizationId(),
                        "customer.signed_up",
                        "customer.email_verified"))
                .isZero();
    }

    @Test
    void shouldShowAnOrganizationOnlyItsOwnEvents() {
        Api alice = signedUp();
        alice.createKey("alice's");
        Api bob = api();
        Api.Account bobAccount = bob.signup();

        List<JsonNode> seenByBob = all(bob);

        assertThat(seenByBob).hasSize(2); // signed up, verified the address
        assertThat(seenByBob)
                .allSatisfy(event ->
                        assertThat(event.get("actor").get("label").asString()).isEqualTo(bobAccount.email()));
        assertThat(Api.withKey(baseUrl(), bob.createKey("bob admin", "admin"))
                        .get("/api/v1/audit-events")
                        .json()
                        .get("events")
                        .findValuesAsString("label"))
                .doesNotContain("alice's");
    }

    @Test
    void shouldPageThrough500EventsExactlyOnceWhile100MoreAreWritten() throws Exception {
        Api ada = api();
        Api.Account account = ada.signup();
        // 500 older events, many sharing one timestamp, so that the id must break the ties
        jdbc.sql(
                        """
                        insert into audit_events (id, organization_id, occurred_at, action, actor_type, details)
                        select gen_random_uuid(), ?, now() - interval '1 hour' + (n / 7) * interval '1 second',
                            'api_key.created', 'system', jsonb_build_object('n', n)
                        from generate_series(1, 500) n""")
                .param(account.organizationId())
                .update();
        Set<String> seeded = new HashSet<>(
                jdbc.sql("select id::text from audit_events where organization_id = ? and action = 'api_key.created'")
                        .param(account.organizationId())
                        .query(String.class)
                        .list());
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            for (int i = 0; i < 100; i++) {
                ada.createKey("concurrent " + i);
            }
        });

        List<String> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            Api.Response page = ada.get("/api/v1/audit-events?limit=20" + (cursor == null ? "" : "&cursor=" + cursor));
            assertThat(page.status()).as(page.toString()).isEqualTo(200);
            page.json().get("events").forEach(e -> seen.add(e.get("id").asString()));
            JsonNode next = page.json().get("next_cursor");
            cursor = next.isNull() ? null : next.asString();
            pages++;
            Thread.sleep(20);
        } while (cursor != null);
        writer.get();

        assertThat(pages).isGreaterThanOrEqualTo(26);
        assertThat(seen).doesNotHaveDuplicates();
        assertThat(seen).containsAll(seeded);
        assertThat(all(ada)).hasSize(602); // and the signup's two: signed up, verified the address
    }

    @Test
    void shouldAnswerTheLastPageWithoutCursorAndCheckLimitAndCursor() {
        Api ada = signedUp(); // signed up, verified the address
        ada.createKey("one");

        JsonNode first = ada.get("/api/v1/audit-events?limit=2").json();
        assertThat(first.get("events").size()).isEqualTo(2);
        JsonNode last = ada.get("/api/v1/audit-events?limit=2&cursor="
                        + first.get("next_cursor").asString())
                .json();
        assertThat(last.get("events").size()).isEqualTo(1);
        assertThat(last.get("events").get(0).get("action").asString()).isEqualTo("customer.signed_up");
        assertThat(last.get("next_cursor").isNull()).isTrue();
        assertThat(ada.get("/api/v1/audit-events").json().get("next_cursor").isNull())
                .isTrue();

        for (String limit : new String[] {"0", "201", "-1", "ten", "", "1.5"}) {
            assertFieldErrors(ada.get("/api/v1/audit-events?limit=" + limit), "limit");
        }
        String forged = Base64.getUrlEncoder().encodeToString("123:not-a-uuid".getBytes(StandardCharsets.US_ASCII));
        for (String cursor : new String[] {"", "garbage!", forged, "MTIzNDU"}) {
            assertFieldErrors(ada.get("/api/v1/audit-events?cursor=" + cursor), "cursor");
        }
        assertProblem(api().get("/api/v1/audit-events"), 401, "unauthenticated");
        assertProblem(
                Api.withKey(baseUrl(), ada.createKey("reader", "read")).get("/api/v1/audit-events"),
                403,
                "insufficient_permissions");
    }

    @Test
    void shouldNeverHoldARawKeyADigestOrAPassword() throws Exception {
        Api ada = api();
        Api.Account account = ada.signup();
        List<String> secrets = new ArrayList<>(List.of(PASSWORD, "a wrong password!"));
        String raw = ada.createKey("secret", "admin");
        secrets.add(raw);
        String keyId = ada.keyId("secret");
        secrets.add(ada.post("/api/v1/api-keys/" + keyId + "/roll")
                .json()
                .get("api_key")
                .asString());
        api().post("/api/v1/auth/login", Map.of("email", account.email(), "password", "a wrong password!"));
        Api.withKey(baseUrl(), raw).delete("/api/v1/api-keys/" + keyId);
        List<String> forbidden = new ArrayList<>();
        for (String secret : secrets) {
            forbidden.add(secret);
            if (secret.startsWith("kv_")) {
                byte[] digest = MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.US_ASCII));
                forbidden.add(HexFormat.of().formatHex(digest));
                forbidden.add(Base64.getEncoder().encodeToString(digest));
                forbidden.add(secret.substring(3, 20));
            }
        }

        List<String> rows = jdbc.sql("select row_to_json(a)::text from audit_events a where organization_id = ?")
                .param(account.organizationId())
                .query(String.class)
                .list();

        assertThat(rows).hasSizeGreaterThanOrEqualTo(5);
        for (String row : rows) {
            for (String secret : forbidden) {
                assertThat(row).doesNotContainIgnoringCase(secret);
            }
        }
    }

    @Test
    void shouldPurgeEventsOlderThanTheRetention() {
        Api ada = api();
        Api.Account account = ada.signupUnverified();
        jdbc.sql(
                        """
                        insert into audit_events (id, organization_id, occurred_at, action, actor_type)
                        values (gen_random_uuid(), ?, now() - interval '401 days', 'old', 'system'),
                               (gen_random_uuid(), ?, now() - interval '399 days', 'kept', 'system')""")
                .params(account.organizationId(), account.organizationId())
                .update();

        retention.purge();

        assertThat(all(ada).stream().map(e -> e.get("action").asString()))
                .containsExactly("customer.signed_up", "kept");
    }

    /** Every event of the caller's organization, newest first, through the cursor. */
    static List<JsonNode> all(Api api) {
        List<JsonNode> events = new ArrayList<>();
        String cursor = null;
        do {
            Api.Response page = api.get("/api/v1/audit-events?limit=200" + (cursor == null ? "" : "&cursor=" + cursor));
            assertThat(page.status()).as(page.toString()).isEqualTo(200);
            page.json().get("events").forEach(events::add);
            JsonNode next = page.json().get("next_cursor");
            cursor = next.isNull() ? null : next.asString();
        } while (cursor != null);
        return events;
    }

    static JsonNode party(String type, String id, String label) {
        return Api.JSON.valueToTree(Map.of("type", type, "id", id, "label", label));
    }
}
