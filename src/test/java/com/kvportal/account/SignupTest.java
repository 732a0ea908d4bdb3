package com.kvportal.account;

import static com.kvportal.support.Problems.assertFieldErrors;
import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

class SignupTest extends IntegrationTest {

    private static final String PASSWORD = "correct horse battery";

    private static String uniqueEmail() {
        return "signup-" + UUID.randomUUID() + "@example.com";
    }

    private static Map<String, Object> signup(@Nullable String email, @Nullable String password) {
        Map<String, Object> body = new HashMap<>();
        body.put("email", email);
        body.put("password", password);
        return body;
    }

    private long customers() {
        return count("select count(*) from customers");
    }

    @Test
    void shouldCreateCustomerOrganizationAndProjectAndSignIn() {
        Api api = api();
        String email = uniqueEmail();

        Api.Response response = api.post("/api/v1/auth/signup", signup(email, PASSWORD));

        assertThat(response.status()).as(response.toString()).isEqualTo(201);
        JsonNode body = response.json();
        UUID customerId = UUID.fromString(body.get("customer_id").asString());
        UUID organizationId = UUID.fromString(body.get("organization_id").asString());
        UUID projectId = UUID.fromString(body.get("project_id").asString());
        assertThat(single(UUID.class, "select owner_id from organizations where id = ?", organizationId))
                .isEqualTo(customerId);
        assertThat(single(UUID.class, "select organization_id from projects where id = ?", projectId))
                .isEqualTo(organizationId);

        Api.Response session = api.get("/api/v1/session");
        assertThat(session.status()).as(session.toString()).isEqualTo(200);
        assertThat(session.json().get("customer_id").asString()).isEqualTo(customerId.toString());
        assertThat(session.json().get("email").asString()).isEqualTo(email);
    }

    @Test
    void shouldSetAnHttpOnlyLaxSessionCookieAndAReadableCsrfCookie() {
        Api.Response response = api().post("/api/v1/auth/signup", signup(uniqueEmail(), PASSWORD));

        assertThat(response.status()).isEqualTo(201);
        String session = response.setCookie("SESSION");
        assertThat(session).as(response.headers("Set-Cookie").toString()).isNotNull();
        assertThat(session).containsIgnoringCase("HttpOnly").containsIgnoringCase("SameSite=Lax");
        String xsrf = response.setCookie("XSRF-TOKEN");
        assertThat(xsrf).as(response.headers("Set-Cookie").toString()).isNotNull();
        assertThat(xsrf).doesNotContainIgnoringCase("HttpOnly");
        assertThat(xsrf.substring("XSRF-TOKEN=".length())).doesNotStartWith(";");
    }

    @Test
    void shouldStoreTheOrganizationNameWhenGiven() {
        Map<String, Object> body = signup(uniqueEmail(), PASSWORD);
        body.put("organization_name", "  Acme Storage  ");

        Api.Response response = api().post("/api/v1/auth/signup", body);

        assertThat(response.status()).isEqualTo(201);
        assertThat(organizationName(response)).isEqualTo("Acme Storage");
    }

    @Test
    void shouldNameTheOrganizationAfterTheEmailWhenNoNameIsGiven() {
        String email = uniqueEmail();
        Api.Response response = api().post("/api/v1/auth/signup", signup(email, PASSWORD));

        assertThat(response.status()).isEqualTo(201);
        assertThat(organizationName(response)).contains(email);
    }

    @Test
    void shouldStoreSqlAndHtmlInTheOrganizationNameLiterally() {
        String name = "Robert'); drop table customers;-- <script>alert(1)</script>";
        Map<String, Object> body = signup(uniqueEmail(), PASSWORD);
        body.put("organization_name", name);

        Api.Response response = api().post("/api/v1/auth/signup", body);

        assertThat(response.status()).as(response.toString()).isEqualTo(201);
        assertThat(organizationName(response)).isEqualTo(name);
        assertThat(customers()).isPositive();
    }

    @Test
    void shouldStoreThePasswordAsArgon2idHashOnly() {
        String email = uniqueEmail();
        api().post("/api/v1/auth/signup", signup(email, PASSWORD));

        String hash = jdbc.sql("select password_hash from customers where email = ?")
                .param(email)
                .query(String.class)
                .single();
        assertThat(hash).startsWith("{argon2}$argon2id$v=19$m=19456,t=2,p=1$").doesNotContain(PASSWORD);
    }

    /** Passwords at both ends of the allowed length, counted as a person counts characters. */
    static Stream<Arguments> passwordsOf12And128Characters() {
        String emoji = "\uD83D\uDE00"; // one character, two UTF-16 units
        return Stream.of(
                Arguments.of(Named.of("12 letters", "x".repeat(12))),
                Arguments.of(Named.of("128 letters", "y".repeat(128))),
                Arguments.of(Named.of("128 umlauts", "ü".repeat(128))),
                Arguments.of(Named.of("12 emoji", emoji.repeat(12))),
                Arguments.of(Named.of("128 emoji", emoji.repeat(128))));
    }

    @ParameterizedTest(name = "accepts a password of {0} and signs in with it")
    @MethodSource("passwordsOf12And128Characters")
    void shouldAcceptPasswordsOf12And128CharactersAndSignInWithThem(String password) {
        String email = uniqueEmail();
        Api.Response created = api().post("/api/v1/auth/signup", signup(email, password));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);

        Api.Response login = api().post("/api/v1/auth/login", Map.of("email", email, "password", password));
        assertThat(login.status()).as(login.toString()).isEqualTo(200);
    }

    @Test
    void shouldNotConfuseLongPasswordsThatShareTheirFirst72Bytes() {
        String email = uniqueEmail();
        String prefix = "p".repeat(72);
        api().post("/api/v1/auth/signup", signup(email, prefix + "first-suffix"));

        Api.Response login = api().post("/api/v1/auth/login", Map.of("email", email, "password", prefix + "other"));

        assertProblem(login, 401, "invalid_credentials");
    }

    @Test
    void shouldAcceptAnEmailOf254Characters() {
        String email = "a".repeat(254 - "@example.com".length()) + "@example.com";
        assertThat(email).hasSize(254);

        assertThat(api().post("/api/v1/auth/signup", signup(email, PASSWORD)).status())
                .isEqualTo(201);
    }

    @Test
    void shouldReturn400WhenTheEmailIsMissing() {
        long before = customers();
        assertFieldErrors(api().post("/api/v1/auth/signup", signup(null, PASSWORD)), "email");
        assertFieldErrors(api().post("/api/v1/auth/signup", signup("   ", PASSWORD)), "email");
        assertThat(customers()).isEqualTo(before);
    }

    @Test
    void shouldReturn400WhenTheEmailIsInvalid() {
        for (String email : new String[] {"no-at-sign", "two@@example.com", "a@b", "spaces in@example.com", "@x.com"}) {
            assertFieldErrors(api().post("/api/v1/auth/signup", signup(email, PASSWORD)), "email");
        }
    }

    @Test
    void shouldReturn400WhenTheEmailIsLongerThan254Characters() {
        String email = "a".repeat(255 - "@example.com".length()) + "@example.com";

        assertFieldErrors(api().post("/api/v1/auth/signup", signup(email, PASSWORD)), "email");
    }

    @Test
    void shouldReturn400WhenThePasswordIsTooShortTooLongOrMissing() {
        long before = customers();
        assertFieldErrors(api().post("/api/v1/auth/signup", signup(uniqueEmail(), "x".repeat(11))), "password");
        assertFieldErrors(api().post("/api/v1/auth/signup", signup(uniqueEmail(), "x".repeat(129))), "password");
        assertFieldErrors(api().post("/api/v1/auth/signup", signup(uniqueEmail(), null)), "password");
        assertThat(customers()).isEqualTo(before);
    }

    @Test
    void shouldStateThePasswordRuleWhicheverPartOfItFails() {
        for (String password : new String[] {"x".repeat(11), "x".repeat(129), null}) {
            JsonNode problem = assertProblem(
                    api().post("/api/v1/auth/signup", signup(uniqueEmail(), password)), 400, "validation_failed");
            assertThat(problem.get("errors")).hasSize(1);
            assertThat(problem.get("errors").get(0).get("field").asString()).isEqualTo("password");
            assertThat(problem.get("errors").get(0).get("message").asString())
                    .isEqualTo("must be 12 to 128 characters");
        }
    }

    @Test
    void shouldCountPasswordCharactersAsAPersonDoesNotAsUtf16Units() {
        String emoji = "\uD83D\uDE00"; // one character, two UTF-16 units
        assertFieldErrors(api().post("/api/v1/auth/signup", signup(uniqueEmail(), emoji.repeat(11))), "password");
        assertFieldErrors(api().post("/api/v1/auth/signup", signup(uniqueEmail(), emoji.repeat(129))), "password");
        // 12 and 128 emoji are accepted: see shouldAcceptPasswordsOf12And128CharactersAndSignInWithThem
    }

    @Test
    void shouldReturn400WhenAFieldIsANumberOrABooleanInsteadOfAString() {
        long before = customers();
        assertFieldErrors(
                api().post("/api/v1/auth/signup", Map.of("email", uniqueEmail(), "password", 123456789012345L)),
                "password");
        assertFieldErrors(api().post("/api/v1/auth/signup", Map.of("email", true, "password", PASSWORD)), "email");
        assertThat(customers()).isEqualTo(before);
    }

    @Test
    void shouldListEveryInvalidFieldAtOnce() {
        Map<String, Object> body = signup("nope", "short");
        body.put("organization_name", " ");

        assertFieldErrors(api().post("/api/v1/auth/signup", body), "email", "password", "organization_name");
    }

    @Test
    void shouldReturn400WhenTheOrganizationNameIsBlankOrTooLong() {
        long before = customers();
        for (String name : new String[] {"", "   ", "o".repeat(101), "tab\tname"}) {
            Map<String, Object> body = signup(uniqueEmail(), PASSWORD);
            body.put("organization_name", name);
            assertFieldErrors(api().post("/api/v1/auth/signup", body), "organization_name");
        }
        assertThat(customers()).isEqualTo(before);
    }

    @Test
    void shouldAcceptAnOrganizationNameOf100Characters() {
        Map<String, Object> body = signup(uniqueEmail(), PASSWORD);
        body.put("organization_name", "o".repeat(100));

        assertThat(api().post("/api/v1/auth/signup", body).status()).isEqualTo(201);
    }

    @Test
    void shouldReturn409WhenTheEmailIsTakenInAnyCase() {
        String local = "taken-" + UUID.randomUUID();
        assertThat(api().post("/api/v1/auth/signup", signup(local.toUpperCase() + "@X.com", PASSWORD))
                        .status())
                .isEqualTo(201);
        long before = customers();

        Api second = api();
        Api.Response response = second.post("/api/v1/auth/signup", signup(local + "@x.com", PASSWORD));

        assertProblem(response, 409, "email_taken");
        assertThat(customers()).isEqualTo(before);
        assertThat(second.cookie("SESSION")).isNull();
    }

    @Test
    void shouldReturn415ForPlainTextOrAForm() {
        long before = customers();
        String json = "{\"email\":\"" + uniqueEmail() + "\",\"password\":\"" + PASSWORD + "\"}";

        assertProblem(api().send("POST", "/api/v1/auth/signup", json, "text/plain"), 415, "unsupported_media_type");
        assertProblem(
                api().send(
                                "POST",
                                "/api/v1/auth/signup",
                                "email=" + uniqueEmail() + "&password=correct+horse+battery",
                                "application/x-www-form-urlencoded"),
                415,
                "unsupported_media_type");
        assertThat(customers()).isEqualTo(before);
    }

    @Test
    void shouldReturn400ForMalformedJson() {
        assertProblem(
                api().send("POST", "/api/v1/auth/signup", "{\"email\": \"a@b.c\", ", "application/json"),
                400,
                "malformed_json");
        assertProblem(api().send("POST", "/api/v1/auth/signup", "", "application/json"), 400, "malformed_json");
    }

    @Test
    void shouldNeedNoCsrfHeader() {
        Api api = api().withoutCsrfEcho();

        assertThat(api.post("/api/v1/auth/signup", signup(uniqueEmail(), PASSWORD))
                        .status())
                .isEqualTo(201);
    }

    private String organizationName(Api.Response response) {
        return jdbc.sql("select name from organizations where id = ?")
                .param(UUID.fromString(response.json().get("organization_id").asString()))
                .query(String.class)
                .single();
    }
}
