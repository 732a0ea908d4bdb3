package com.kvportal.common.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Text that is not valid Unicode is refused with 400, never repaired into something else, and no odd input is a
 * 5xx: malformed UTF-8, lone surrogates, NUL, a wildcard content type.
 */
class BadTextTest extends IntegrationTest {

    private static final String PASSWORD = "correct horse battery";

    private Api.Response signupWithRawEmail(byte[] emailBytes) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes("{\"email\":\"".getBytes(StandardCharsets.UTF_8));
        body.writeBytes(emailBytes);
        body.writeBytes(("\",\"password\":\"" + PASSWORD + "\"}").getBytes(StandardCharsets.UTF_8));
        return api().sendRaw(
                        "POST",
                        "/api/v1/auth/signup",
                        HttpRequest.BodyPublishers.ofByteArray(body.toByteArray()),
                        Map.of("Content-Type", "application/json"));
    }

    private long customersLike(String marker) {
        return count("select count(*) from customers where email like ?", "%" + marker + "%");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"C0AF", "E08080", "EDA080", "F4908080", "FF", "80", "E282"})
    void shouldRefuseMalformedUtf8InABodyAndStoreNothing(String hex) {
        String marker = UUID.randomUUID().toString();
        ByteArrayOutputStream email = new ByteArrayOutputStream();
        email.writeBytes(("a" + marker).getBytes(StandardCharsets.UTF_8));
        email.writeBytes(HexFormat.of().parseHex(hex));
        email.writeBytes("b@example.com".getBytes(StandardCharsets.UTF_8));

        Api.Response response = signupWithRawEmail(email.toByteArray());

        assertThat(response.status()).as(response.toString()).isEqualTo(400);
        assertThat(response.code()).isEqualTo("malformed_json");
        assertThat(customersLike(marker)).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"\\ud800", "\\udc00", "\\ud800x", "\\ud800\\n", "\\ud800\\u0041", "\\u0000"})
    void shouldRefuseLoneSurrogatesAndNulEscapesAndStoreNothing(String escape) {
        String marker = UUID.randomUUID().toString();
        Api.Response response =
                signupWithRawEmail(("a" + marker + escape + "b@example.com").getBytes(StandardCharsets.UTF_8));

        assertThat(response.status()).as(response.toString()).isEqualTo(400);
        assertThat(response.code()).isEqualTo("malformed_json");
        assertThat(customersLike(marker)).isZero();
    }

    /** Signs up with this organization name, written into the JSON body as it stands (escapes and all). */
    private Api.Response signupNamingTheOrganization(String name) {
        return api().send(
                        "POST",
                        "/api/v1/auth/signup",
                        "{\"email\":\"org-" + UUID.randomUUID() + "@example.com\",\"password\":\"" + PASSWORD
                                + "\",\"organization_name\":\"" + name + "\"}",
                        "application/json");
    }

    @Test
    void shouldRefuseANulInAKeyNameOrAnOrganizationName() {
        Api owner = signedUp();
        Api.Response key =
                owner.send("POST", "/api/v1/api-keys", "{\"name\":\"before\\u0000after\"}", "application/json");
        assertThat(key.status()).as(key.toString()).isEqualTo(400);
        Api.Response signup = signupNamingTheOrganization("a\\u0000b");
        assertThat(signup.status()).as(signup.toString()).isEqualTo(400);
    }

    @Test
    void shouldAcceptCharactersBeyondTheBasicPlaneWrittenEitherWay() {
        Api.Response escaped = signupNamingTheOrganization("Rocket \\ud83d\\ude80");
        assertThat(escaped.status()).as(escaped.toString()).isEqualTo(201);
        Api.Response raw = signupNamingTheOrganization("Rocket \uD83D\uDE80 \u00e9");
        assertThat(raw.status()).as(raw.toString()).isEqualTo(201);
    }

    @Test
    void shouldAnswer400NotA500ToANulInALoginEmail() {
        Api.Response response = api().send(
                        "POST",
                        "/api/v1/auth/login",
                        "{\"email\":\"a\\u0000b@example.com\",\"password\":\"" + PASSWORD + "\"}",
                        "application/json");
        assertThat(response.status()).as(response.toString()).isEqualTo(400);
        assertThat(response.code()).isEqualTo("malformed_json");
    }

    @Test
    void shouldAnswer400NotA500ToANulInAQueryParameter() {
        Api.Response response = api().get("/api/v1/billing/checkout/success?session_id=cs_%00x");
        assertThat(response.status()).as(response.toString()).isEqualTo(400);
        assertThat(response.code()).isEqualTo("malformed_parameters");
    }

    @Test
    void shouldNotAnswer5xxToAWebhookWithAWildcardContentType() {
        Api.Response response = api().sendRaw(
                        "POST",
                        "/api/v1/billing/webhook",
                        HttpRequest.BodyPublishers.ofString("{\"id\":\"evt_1\"}"),
                        Map.of("Content-Type", "*/*", "Stripe-Signature", "t=1,v1=00"));
        assertThat(response.status()).as(response.toString()).isEqualTo(415);
        assertThat(response.code()).isEqualTo("unsupported_media_type");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "/api/v1/auth/signup=POST",
                "/api/v1/auth/login=POST",
                "/api/v1/api-keys=GET,HEAD,POST",
                "/api/v1/session/project=PUT",
                "/api/v1/billing/plans=GET,HEAD"
            })
    void shouldAdvertiseInOptionsOnlyTheMethodsAPathAnswers(String pathAndMethods) {
        String path = pathAndMethods.substring(0, pathAndMethods.indexOf('='));
        Set<String> expected = new TreeSet<>(
                List.of(pathAndMethods.substring(path.length() + 1).split(",")));
        expected.add("OPTIONS");
        Api signedIn = signedUp();
        Api.Response response = signedIn.send("OPTIONS", path, null, null);
        assertThat(response.status()).as(response.toString()).isBetween(200, 204);
        Set<String> allowed = new TreeSet<>();
        for (String method : String.valueOf(response.header("Allow")).split(",")) {
            allowed.add(method.strip());
        }
        assertThat(allowed).isEqualTo(expected);
    }
}
