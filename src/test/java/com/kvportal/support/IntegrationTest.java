package com.kvportal.support;

import com.kvportal.common.PaymentProvider;
import com.stripe.StripeClient;
import org.junit.jupiter.api.Tag;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Base of the tests that run the whole service: the real HTTP stack on a random port of 127.0.0.1, and a real
 * PostgreSQL. One Spring context (and its database) is shared by every class with the same configuration, so tests
 * isolate by tenant (a fresh signup each) and never count rows globally; a class that needs other properties gets a
 * context and a database of its own.
 */
@Tag("spring")
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "server.address=127.0.0.1",
            "kvportal.database.pool-size=5",
            "kvportal.usage.api-token=" + IntegrationTest.USAGE_TOKEN + ", " + IntegrationTest.ROTATED_USAGE_TOKEN,
            "PAYMENT_WEBHOOK_SECRET=" + IntegrationTest.WEBHOOK_SECRET,
            "SANDBOX_API_KEY=" + IntegrationTest.SANDBOX_KEY
        })
public abstract class IntegrationTest {

    /** The webhook's signing secret, so that tests can sign events as the provider does. */
    public static final String WEBHOOK_SECRET = "whsec_test_5f2d6c1e0b9a48d7a3c2e1f0b9a8d7c6";

    /** The payment sandbox's secret key ({@code SANDBOX_API_KEY}): its Stripe API and test clock take only it. */
    public static final String SANDBOX_KEY = "sk_test_IntegrationTestKey0123456789ab";

    /** The storage backend's token for usage reporting, and the second one of a rotation. */
    public static final String USAGE_TOKEN = "usage-token-4f9c1b7e2d";

    public static final String ROTATED_USAGE_TOKEN = "usage-token-rotated-8a3e";

    /** The bearer token of {@code /actuator/**} but health, as the test configuration sets {@code METRICS_TOKEN}. */
    public static final String METRICS_TOKEN = "metrics-token-3b7d9e1c";

    @LocalServerPort
    protected int port;

    @Autowired
    protected JdbcClient jdbc;

    @Autowired
    private PaymentProvider provider;

    /** How many rows a {@code select count(*)} query with positional parameters finds. */
    protected long count(String sql, Object... params) {
        return jdbc.sql(sql).params(params).query(Long.class).single();
    }

    /** The one value of this type that a query with positional parameters finds. */
    protected <T> T single(Class<T> type, String sql, Object... params) {
        return jdbc.sql(sql).params(params).query(type).single();
    }

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        // the supplier is asked on every read of the property: create the database once per context (a cached
        // context is not created again)
        String url = TestDatabase.freshDatabaseUrl();
        registry.add("DATABASE_URL", () -> url);
    }

    /** An HTTP client for this server, with its own cookie jar. */
    protected Api api() {
        return new Api("http://127.0.0.1:" + port);
    }

    /** An HTTP client signed in as the owner of a fresh organization: a tenant of its own. */
    protected Api signedUp() {
        Api api = api();
        api.signup();
        return api;
    }

    /** An HTTP client with the payment sandbox's key, for its Stripe API and its test clock (advance, card). */
    protected Api sandbox() {
        return Api.withKey(baseUrl(), SANDBOX_KEY);
    }

    /** A client presenting {@link #METRICS_TOKEN}, to scrape {@code /actuator/prometheus}. */
    protected Api metrics() {
        return Api.withKey(baseUrl(), METRICS_TOKEN);
    }

    /** The real stripe-java client on the payment provider the service talks to (the sandbox unless configured). */
    protected StripeClient stripeClient() {
        return StripeClient.builder()
                .setApiKey(provider.secretKey())
                .setApiBase(provider.apiBase())
                .build();
    }

    protected String baseUrl() {
        return "http://127.0.0.1:" + port;
    }
}
