package com.kvportal.security;

import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.common.web.PathIds;
import com.kvportal.support.Api;
import com.kvportal.support.ApiDocument;
import com.kvportal.support.IntegrationTest;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * The rules security derives from the handlers' {@link ApiContract} at start-up ({@link EndpointRules}): one for
 * every operation of the document and no other, each accepting the credentials the document states; and a request
 * that reaches no endpoint treated as before (404 for every caller, the CSRF check for a session's write).
 */
class DerivedRulesTest extends IntegrationTest {

    /** The document's security schemes, by the credential each stands for. */
    private static final Map<String, Credential> SCHEMES = Map.of(
            "session", Credential.PORTAL,
            "apiKey", Credential.API_KEY,
            "usageToken", Credential.USAGE_TOKEN,
            "stripeSignature", Credential.STRIPE_SIGNATURE,
            "githubSignature", Credential.GITHUB_SIGNATURE);

    @Autowired
    EndpointRules rules;

    @Test
    void shouldDeriveARuleForEveryOperationOfTheDocumentAndNoOther() {
        JsonNode document = Api.JSON.readTree(ApiDocument.fetch(baseUrl()));
        Map<String, Set<Credential>> documented = new TreeMap<>();
        document.path("paths")
                .properties()
                .forEach(path -> path.getValue().properties().forEach(operation -> {
                    Set<Credential> credentials = new TreeSet<>();
                    operation.getValue().path("security").forEach(requirement -> requirement
                            .propertyNames()
                            .forEach(scheme -> {
                                if (SCHEMES.containsKey(scheme)) {
                                    credentials.add(SCHEMES.get(scheme));
                                }
                            }));
                    documented.put(
                            operation.getKey().toUpperCase() + " " + path.getKey() + " "
                                    + operation.getValue().path("operationId").asString(),
                            credentials);
                }));
        Map<String, Set<Credential>> derived = new TreeMap<>();
        for (EndpointRule rule : rules.all()) {
            // a portal call also takes an admin key, which the document states as a second scheme
            Set<Credential> credentials = new TreeSet<>(rule.credentials());
            if (rule.portal()) {
                credentials.add(Credential.API_KEY);
            }
            derived.put(rule.method() + " " + PathIds.relaxed(rule.pattern()) + " " + rule.operation(), credentials);
        }

        assertThat(derived).hasSizeGreaterThan(50).isEqualTo(documented);
        assertThat(rules.all()).filteredOn(EndpointRule::portal).allSatisfy(rule -> assertThat(rule.permission())
                .as(rule.operation())
                .isNotNull());
        assertThat(rules.all())
                .filteredOn(rule -> rule.maxBodyBytes() > 64 * 1024)
                .extracting(EndpointRule::operation)
                .containsExactlyInAnyOrder("receiveProviderEvent", "reportStorage");
    }

    @Test
    void shouldAnswer404ToEveryCallerForAnApiPathNoEndpointServes() {
        Api session = signedUp();
        String adminKey = session.createKey("admin", "admin");
        for (Api caller : new Api[] {api(), session, Api.withKey(baseUrl(), adminKey)}) {
            assertProblem(caller.get("/api/v1/nothing-here"), 404, "not_found");
            assertProblem(caller.get("/api/v2/api-keys"), 404, "not_found");
        }
        assertProblem(Api.withKey(baseUrl(), adminKey).post("/api/v1/nothing-here"), 404, "not_found");
    }

    @Test
    void shouldStillAskASessionsWriteToAnUnknownPathForTheCsrfToken() {
        Api session = signedUp().withoutCsrfEcho();

        assertProblem(session.post("/api/v1/nothing-here"), 403, "csrf_failed");
    }

    @Test
    void shouldAskForAPortalCredentialBeforeTellingAWrongMethodOrAnIdThatIsNotOne() {
        for (Api anonymous : new Api[] {api(), Api.withKey(baseUrl(), "garbage")}) {
            assertProblem(anonymous.send("PATCH", "/api/v1/usage", null, null), 401, "unauthenticated");
            assertProblem(anonymous.delete("/api/v1/api-keys/not-an-id"), 401, "unauthenticated");
            assertProblem(anonymous.get("/api/v1/webhook-endpoints/" + UUID.randomUUID()), 401, "unauthenticated");
        }
    }

    @Test
    void shouldTellAWrongMethodOnAPublicPathWithoutACredential() {
        assertProblem(api().get("/api/v1/auth/signup"), 405, "method_not_allowed");
        assertProblem(api().get("/api/v1/usage/storage"), 405, "method_not_allowed");
        assertProblem(api().delete("/api/v1/api-keys/verify"), 405, "method_not_allowed");
        assertProblem(api().send("PUT", "/api/v1/billing/plans", null, null), 405, "method_not_allowed");
    }

    @Test
    void shouldAskForTheStorageBackendsTokenHoweverThePathIsSpelt() {
        for (String path : new String[] {"/api/v1/usage/storage", "/api/v1/usage/%73torage"}) {
            Api.Response response = api().send("POST", path, "{\"samples\":[]}", "application/json");

            assertProblem(response, 401, "unauthenticated");
            assertThat(response.header("WWW-Authenticate")).isEqualTo("Bearer");
        }
    }
}
