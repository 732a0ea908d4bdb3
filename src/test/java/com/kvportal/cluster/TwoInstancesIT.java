package com.kvportal.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.KvPortalApplication;
import com.kvportal.support.Api;
import com.kvportal.support.Inbox;
import com.kvportal.support.IntegrationTest;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two instances of the service on one database, as behind a load balancer: a key revoked on one is refused
 * by the other at once, and a session started on one works on the other.
 */
class TwoInstancesIT extends IntegrationTest {

    private static ConfigurableApplicationContext second;
    private static String secondBase;

    @Value("${DATABASE_URL}")
    String databaseUrl;

    @BeforeAll
    static void noSecondYet() {
        second = null;
    }

    private String secondInstance() {
        if (second == null) {
            second = new SpringApplicationBuilder(KvPortalApplication.class)
                    .properties(
                            "server.port=0",
                            "server.address=127.0.0.1",
                            "DATABASE_URL=" + databaseUrl,
                            "kvportal.database.pool-size=3")
                    .run();
            secondBase = "http://127.0.0.1:"
                    + ((WebServerApplicationContext) second).getWebServer().getPort();
        }
        return secondBase;
    }

    @AfterAll
    static void stopSecond() {
        if (second != null) {
            second.close();
        }
    }

    @Test
    void shouldRefuseAKeyOnTheOtherInstanceTheMomentItsRevocationIsAnswered() {
        Api first = api();
        first.signup();
        String raw = first.createKey("shared", "admin");
        String id = first.get("/api/v1/api-keys")
                .json()
                .get("keys")
                .get(0)
                .get("id")
                .asString();
        Api onSecond = Api.withKey(secondInstance(), raw);
        assertThat(onSecond.post("/api/v1/api-keys/verify").status()).isEqualTo(200);
        assertThat(onSecond.get("/api/v1/api-keys").status()).isEqualTo(200);

        assertThat(first.delete("/api/v1/api-keys/" + id).status()).isEqualTo(204);

        Api.Response verify = onSecond.post("/api/v1/api-keys/verify");
        assertThat(verify.status()).isEqualTo(401);
        assertThat(verify.code()).isEqualTo("api_key_revoked");
        assertThat(onSecond.get("/api/v1/api-keys").status()).isEqualTo(401);
    }

    @Test
    void shouldShareSessionsBetweenInstances() {
        Api first = api();
        Api.Account account = first.signup();
        String session = first.cookie("SESSION");
        String xsrf = first.cookie("XSRF-TOKEN");

        Api other = new Api(secondInstance());
        other.setCookie("SESSION", session);
        other.setCookie("XSRF-TOKEN", xsrf);

        Api.Response sessionView = other.get("/api/v1/session");
        assertThat(sessionView.status()).isEqualTo(200);
        assertThat(sessionView.json().get("customer_id").asString())
                .isEqualTo(account.customerId().toString());
        assertThat(other.post("/api/v1/api-keys", Map.of("name", "made on the second instance"))
                        .status())
                .isEqualTo(201);
        assertThat(first.get("/api/v1/api-keys")
                        .json()
                        .get("keys")
                        .get(0)
                        .get("name")
                        .asString())
                .isEqualTo("made on the second instance");
    }

    @Test
    void shouldShowEveryInstancesMailInEachInstancesMailSandbox() {
        Api onSecond = new Api(secondInstance());
        Api.Account account = onSecond.signupUnverified();

        // sent by the second instance through its own embedded SMTP server, read at the first one's sandbox
        String token = Inbox.token(new Inbox(baseUrl(), account.email()).awaitMessage("Confirm your email address"));

        assertThat(api().post("/api/v1/auth/verify-email", Map.of("token", token))
                        .status())
                .isEqualTo(200);
        assertThat(new Inbox(secondInstance(), account.email()).messages()).hasSize(1);
    }

    @Test
    void shouldRefuseASessionOnTheOtherInstanceOnceItWasEnded() {
        Api first = api();
        Api.Account account = first.signup();
        Api elsewhere = Api.loggedIn(secondInstance(), account.email());
        assertThat(elsewhere.get("/api/v1/session").status()).isEqualTo(200);

        assertThat(first.delete("/api/v1/account/sessions").status()).isEqualTo(204);

        assertThat(elsewhere.get("/api/v1/session").status()).isEqualTo(401);
    }
}
