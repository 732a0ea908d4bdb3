package com.kvportal.common.validation;

import static com.kvportal.support.Problems.assertFieldErrors;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.SignedInTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Names and descriptions that people read (keys, projects, organizations, webhook endpoints) refuse the characters
 * that change how a text looks without being seen: a right-to-left override or a zero-width space would let one
 * name pass for another in the dashboard. Each refusal is 400 {@code validation_failed} naming the field, and saves
 * nothing.
 */
class ReadableNamesTest extends SignedInTest {

    /** A right-to-left override, an isolate, a zero-width space, a joiner, a word joiner, a byte order mark. */
    private static final List<String> HIDDEN = List.of("\u202E", "\u2067", "\u200B", "\u200D", "\u2060", "\uFEFF");

    private static final String HOOK_URL = "https://hooks.example.invalid/kv-portal";

    private static String spoofed(String hidden) {
        return "prod" + hidden + "yek";
    }

    @Test
    void shouldRefuseThemInAKeyNameAtCreationAndRename() {
        String id = session.newKeyId("plain");
        for (String hidden : HIDDEN) {
            assertFieldErrors(session.post("/api/v1/api-keys", Map.of("name", spoofed(hidden))), "name");
            assertFieldErrors(session.patch("/api/v1/api-keys/" + id, Map.of("name", spoofed(hidden))), "name");
        }
        assertThat(session.keyNames()).containsExactly("plain");
    }

    @Test
    void shouldRefuseThemInAProjectName() {
        for (String hidden : HIDDEN) {
            assertFieldErrors(session.post("/api/v1/projects", Map.of("name", spoofed(hidden))), "name");
        }
        assertThat(count("select count(*) from projects where organization_id = ?", account.organizationId()))
                .isEqualTo(1);
    }

    @Test
    void shouldRefuseThemInAnOrganizationNameAtCreationAndSignup() {
        for (String hidden : HIDDEN) {
            assertFieldErrors(session.post("/api/v1/organizations", Map.of("name", spoofed(hidden))), "name");
            String email = "names-" + java.util.UUID.randomUUID() + "@example.com";
            assertFieldErrors(
                    api().post(
                                    "/api/v1/auth/signup",
                                    Map.of(
                                            "email",
                                            email,
                                            "password",
                                            Api.PASSWORD,
                                            "organization_name",
                                            spoofed(hidden))),
                    "organization_name");
            assertThat(count("select count(*) from customers where email = ?", email))
                    .isZero();
        }
        assertThat(count("select count(*) from organizations where name like 'prod%yek'"))
                .isZero();
    }

    @Test
    void shouldRefuseThemInAWebhookEndpointDescription() {
        String id = session.createWebhookEndpoint(Map.of("url", HOOK_URL)).id();
        for (String hidden : HIDDEN) {
            assertFieldErrors(
                    session.post("/api/v1/webhook-endpoints", Map.of("url", HOOK_URL, "description", spoofed(hidden))),
                    "description");
            assertFieldErrors(
                    session.patch("/api/v1/webhook-endpoints/" + id, Map.of("description", spoofed(hidden))),
                    "description");
        }
        assertThat(count("select count(*) from webhook_endpoints where organization_id = ?", account.organizationId()))
                .isEqualTo(1);
        assertThat(single(String.class, "select description from webhook_endpoints where id = ?::uuid", id))
                .isEmpty();
    }

    @Test
    void shouldTakeRightToLeftLettersAndAccentsAsTheyAre() {
        Api.Response created = session.post("/api/v1/projects", Map.of("name", "מחסן café"));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
    }
}
