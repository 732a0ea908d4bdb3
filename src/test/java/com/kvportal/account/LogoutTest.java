package com.kvportal.account;

import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class LogoutTest extends IntegrationTest {

    /** Spring Session's cookie carries the Base64 of the session id. */
    private long sessionRows(String cookie) {
        String id = new String(Base64.getDecoder().decode(cookie), StandardCharsets.UTF_8);
        return count("select count(*) from spring_session where session_id = ?", id);
    }

    @Test
    void shouldEndTheSession() {
        Api api = signedUp();
        String cookie = api.cookie("SESSION");
        assertThat(sessionRows(cookie)).isEqualTo(1);

        Api.Response response = api.post("/api/v1/auth/logout");

        assertThat(response.status()).as(response.toString()).isEqualTo(204);
        assertThat(sessionRows(cookie)).isZero();
        assertProblem(api.get("/api/v1/session"), 401, "unauthenticated");
        Api replay = api();
        replay.setCookie("SESSION", cookie);
        assertProblem(replay.get("/api/v1/session"), 401, "unauthenticated");
    }

    @Test
    void shouldReturn401WithoutASession() {
        Api.Response response = api().post("/api/v1/auth/logout");

        assertProblem(response, 401, "unauthenticated");
        assertThat(response.header("WWW-Authenticate")).isEqualTo("Bearer");
    }

    @Test
    void shouldReturn403WithoutTheCsrfHeaderAndKeepTheSession() {
        Api api = signedUp();
        String cookie = api.cookie("SESSION");

        assertProblem(api.withoutCsrfEcho().post("/api/v1/auth/logout"), 403, "csrf_failed");
        assertProblem(api.withCsrfToken("forged").post("/api/v1/auth/logout"), 403, "csrf_failed");

        assertThat(sessionRows(cookie)).isEqualTo(1);
        assertThat(api.get("/api/v1/session").status()).isEqualTo(200);
    }

    @Test
    void shouldLetTheCustomerSignInAgainAfterLogout() {
        Api api = api();
        Api.Account account = api.signup();
        api.post("/api/v1/auth/logout");

        Api.Response login = api.post(
                "/api/v1/auth/login", java.util.Map.of("email", account.email(), "password", "correct horse battery"));

        assertThat(login.status()).isEqualTo(200);
        assertThat(api.get("/api/v1/session").status()).isEqualTo(200);
    }
}
