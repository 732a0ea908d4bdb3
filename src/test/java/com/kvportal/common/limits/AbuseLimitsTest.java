package com.kvportal.common.limits;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.KvPortalApplication;
import com.kvportal.support.Api;
import com.kvportal.support.TestDatabase;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Signup and login are limited per client address and login overall (for addresses nobody signed up or logged in
 * from), with low limits set here (the suite's configuration is generous), on two instances sharing one database: the
 * budget is shared, and {@code X-Forwarded-For} counts only when the request comes from a trusted proxy. The overall
 * circuit is shared by every test here and never refills within the run: the tests that open it run in this order.
 */
@Tag("spring")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AbuseLimitsTest {

    private static final String PASSWORD = "correct horse battery";

    /** Trusts loopback as its proxy, as the default does (loopback only). */
    private static ConfigurableApplicationContext behindProxy;
    /**
     * Trusts no proxy that a test can be: X-Forwarded-For from 127.0.0.1 is the client's own claim. Runs without
     * {@code METRICS_TOKEN}.
     */
    private static ConfigurableApplicationContext direct;

    private static String behindProxyBase;
    private static String directBase;

    @BeforeAll
    static void startTwoInstances() {
        String database = TestDatabase.freshDatabaseUrl();
        behindProxy = start(database, "server.tomcat.remoteip.internal-proxies=127\\.0\\.0\\.1");
        direct = start(database, "server.tomcat.remoteip.internal-proxies=192\\.0\\.2\\.1", "kvportal.metrics.token=");
        behindProxyBase = base(behindProxy);
        directBase = base(direct);
    }

    private static ConfigurableApplicationContext start(String database, String... settings) {
        return new SpringApplicationBuilder(KvPortalApplication.class)
                .run(
                        "--server.port=0",
                        "--server.address=127.0.0.1",
                        "--DATABASE_URL=" + database,
                        "--kvportal.database.pool-size=3",
                        "--" + settings[0],
                        settings.length > 1 ? "--" + settings[1] : "--kvportal.limits.known-address-ttl=1d",
                        "--kvportal.limits.signups-per-address=3",
                        "--kvportal.limits.signup-window=1h",
                        "--kvportal.limits.logins-per-address=3",
                        "--kvportal.limits.login-window=1h",
                        "--kvportal.limits.logins-overall=5",
                        "--kvportal.limits.overall-login-window=1h");
    }

    private static String base(ConfigurableApplicationContext context) {
        return "http://127.0.0.1:"
                + ((WebServerApplicationContext) context).getWebServer().getPort();
    }

    @AfterAll
    static void stop() {
        if (behindProxy != null) {
            behindProxy.close();
        }
        if (direct != null) {
            direct.close();
        }
    }

    @Test
    void shouldRefuseTheFourthSignupOfAnAddressOnEveryInstanceWhateverXForwardedForItClaims() {
        String client = "203.0.113.10";
        for (int i = 0; i < 3; i++) {
            assertThat(signup(behindProxyBase, client).status()).isEqualTo(201);
        }
        Api.Response refused = signup(behindProxyBase, client);
        assertRateLimited(refused, 600);

        // another client behind the same trusted proxy has its own budget
        assertThat(signup(behindProxyBase, "203.0.113.11").status()).isEqualTo(201);

        // directly from 127.0.0.1, the claimed X-Forwarded-For is ignored: 127.0.0.1's budget, on both instances
        for (int i = 0; i < 3; i++) {
            assertThat(signup(directBase, "198.51.100." + i).status()).isEqualTo(201);
        }
        assertRateLimited(signup(directBase, "198.51.100.99"), 600);
        assertRateLimited(signup(behindProxyBase, null), 600);
    }

    @Test
    @Order(1)
    void shouldLimitLoginAttemptsPerAddressAndOverallBeforeCheckingAnyPassword() {
        String first = "203.0.113.20";
        for (int i = 0; i < 3; i++) {
            assertThat(login(behindProxyBase, first, "nobody-" + UUID.randomUUID() + "@example.com")
                            .status())
                    .isEqualTo(401);
        }
        Api.Response perAddress = login(behindProxyBase, first, "nobody-" + UUID.randomUUID() + "@example.com");
        assertRateLimited(perAddress, 600);

        // two more from another address reach the overall ceiling of five
        String second = "203.0.113.21";
        for (int i = 0; i < 2; i++) {
            assertThat(login(behindProxyBase, second, "nobody-" + UUID.randomUUID() + "@example.com")
                            .status())
                    .isEqualTo(401);
        }
        assertRateLimited(login(behindProxyBase, second, "nobody-" + UUID.randomUUID() + "@example.com"), 60);
        assertRateLimited(login(directBase, "203.0.113.22", "nobody-" + UUID.randomUUID() + "@example.com"), 60);
    }

    @Test
    void shouldLimitALoginsSecondStepPerAddressFromTheSameBudgetAsThePasswordStep() {
        String client = "203.0.113.30";
        String body = Api.JSON.writeValueAsString(Map.of("code", "123456"));
        for (int i = 0; i < 3; i++) {
            assertThat(send(behindProxyBase, "/api/v1/auth/login/totp", body, client)
                            .code())
                    .as("no login waits for its second step here")
                    .isEqualTo("unauthenticated");
        }

        assertRateLimited(send(behindProxyBase, "/api/v1/auth/login/totp", body, client), 600);
        assertRateLimited(login(behindProxyBase, client, "nobody-" + UUID.randomUUID() + "@example.com"), 600);
        // another address has its own budget
        assertThat(send(behindProxyBase, "/api/v1/auth/login/totp", body, "203.0.113.31")
                        .code())
                .isEqualTo("unauthenticated");
    }

    @Test
    void shouldAnswerARepeatedUnknownKeyFromMemoryWithoutSpendingAnyBudget() {
        Api api = Api.withKey(behindProxyBase, "kv_AAAAAAAAAAAAAAAAAAAAAAAAAA36zwQ7");
        for (int i = 0; i < 60; i++) {
            assertThat(api.post("/api/v1/api-keys/verify").code()).isEqualTo("invalid_api_key");
        }
    }

    @Test
    @Order(2)
    void shouldMeetTheSameLimitsWhenALetterOfThePathIsPercentEncoded() {
        String client = "203.0.113.50";
        for (int i = 0; i < 3; i++) {
            assertThat(signup(behindProxyBase, "/api/v1/auth/%73ignup", client).status())
                    .isEqualTo(201);
        }
        assertRateLimited(signup(behindProxyBase, "/api/v1/auth/%73ignup", client), 600);
        assertRateLimited(signup(behindProxyBase, "/api/v1/auth/signup", client), 600);
        assertRateLimited(signup(behindProxyBase, "/api/v1/auth/sign%75p", client), 600);

        // the address signed up: the overall circuit leaves it alone, its own budget of three is what counts
        for (int i = 0; i < 3; i++) {
            assertThat(login(
                                    behindProxyBase,
                                    "/api/v1/auth/%6cogin",
                                    client,
                                    "nobody-" + UUID.randomUUID() + "@example.com")
                            .code())
                    .isEqualTo("invalid_credentials");
        }
        for (String path :
                new String[] {"/api/v1/auth/%6cogin", "/api/v1/auth/login", "/api/%761/auth/%6C%6F%67%69%6E"}) {
            assertRateLimited(
                    login(behindProxyBase, path, client, "nobody-" + UUID.randomUUID() + "@example.com"), 600);
        }
    }

    @Test
    @Order(3)
    void shouldNotLetFiftyAddressesSprayingLockACustomerOutOfTheirOwnAddress() {
        String home = "203.0.113.60";
        String email = "sprayed-" + UUID.randomUUID() + "@example.com";
        assertThat(send(
                                behindProxyBase,
                                "/api/v1/auth/signup",
                                Api.JSON.writeValueAsString(Map.of("email", email, "password", PASSWORD)),
                                home)
                        .status())
                .isEqualTo(201);

        List<String> answers = new ArrayList<>();
        for (int address = 1; address <= 50; address++) {
            for (int i = 0; i < 3; i++) {
                answers.add(login(
                                behindProxyBase,
                                "/api/v1/auth/login",
                                "198.18.0." + address,
                                "sprayed-" + UUID.randomUUID() + "@example.com")
                        .code());
            }
        }
        assertThat(answers).as("the circuit is open for addresses nobody used").contains("too_many_requests");

        Api.Response customer = login(behindProxyBase, "/api/v1/auth/login", home, email);
        assertThat(customer.status()).as(customer.toString()).isEqualTo(200);
    }

    @Test
    void shouldAnswerEveryActuatorEndpointButHealthAs404WithoutAMetricsToken() {
        for (String path : new String[] {"/actuator/prometheus", "/actuator/info", "/actuator"}) {
            assertThat(new Api(directBase).get(path).status()).as(path).isEqualTo(404);
            assertThat(Api.withKey(directBase, "").get(path).status()).as(path).isEqualTo(404);
            assertThat(Api.withKey(directBase, "anything").get(path).status())
                    .as(path)
                    .isEqualTo(404);
        }
        assertThat(new Api(directBase).get("/actuator/health").status()).isEqualTo(200);
    }

    private static void assertRateLimited(Api.Response response, long atLeastSeconds) {
        assertThat(response.status()).as(response.toString()).isEqualTo(429);
        assertThat(response.code()).isEqualTo("too_many_requests");
        assertThat(response.header("Content-Type")).startsWith("application/problem+json");
        assertThat(Long.parseLong(response.header("Retry-After"))).isGreaterThanOrEqualTo(atLeastSeconds);
    }

    private static Api.Response signup(String base, String forwardedFor) {
        return signup(base, "/api/v1/auth/signup", forwardedFor);
    }

    private static Api.Response signup(String base, String path, String forwardedFor) {
        String body = Api.JSON.writeValueAsString(
                Map.of("email", "limit-" + UUID.randomUUID() + "@example.com", "password", PASSWORD));
        return send(base, path, body, forwardedFor);
    }

    private static Api.Response login(String base, String forwardedFor, String email) {
        return login(base, "/api/v1/auth/login", forwardedFor, email);
    }

    private static Api.Response login(String base, String path, String forwardedFor, String email) {
        return send(
                base, path, Api.JSON.writeValueAsString(Map.of("email", email, "password", PASSWORD)), forwardedFor);
    }

    private static Api.Response send(String base, String path, String body, String forwardedFor) {
        Map<String, String> headers = forwardedFor == null
                ? Map.of("Content-Type", "application/json")
                : Map.of("Content-Type", "application/json", "X-Forwarded-For", forwardedFor);
        return new Api(base).sendRaw("POST", path, HttpRequest.BodyPublishers.ofString(body), headers);
    }
}
