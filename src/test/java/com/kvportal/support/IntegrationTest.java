package com.kvportal.support;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Base of the tests that run the whole service: the real HTTP stack on a random port of 127.0.0.1, and a
 * real PostgreSQL with a database of its own for each test class.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "server.address=127.0.0.1",
            "kvportal.database.pool-size=5",
            "kvportal.usage.api-token=" + IntegrationTest.USAGE_TOKEN + ", " + IntegrationTest.ROTATED_USAGE_TOKEN
        })
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
public abstract class IntegrationTest {

    /** The storage backend's token for usage reporting, and the second one of a rotation. */
    public static final String USAGE_TOKEN = "usage-token-4f9c1b7e2d";

    public static final String ROTATED_USAGE_TOKEN = "usage-token-rotated-8a3e";

    @LocalServerPort
    protected int port;

    @Autowired
    protected JdbcClient jdbc;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        // the supplier is asked on every read of the property: create the database once per context
        String url = TestDatabase.freshDatabaseUrl();
        registry.add("DATABASE_URL", () -> url);
    }

    /** An HTTP client for this server, with its own cookie jar. */
    protected Api api() {
        return new Api("http://127.0.0.1:" + port);
    }

    protected String baseUrl() {
        return "http://127.0.0.1:" + port;
    }
}
