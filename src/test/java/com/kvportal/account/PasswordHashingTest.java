package com.kvportal.account;

import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;

/**
 * A password logs in only as given: no shorter form derived from it (as the bcrypt of before derived one from a
 * password over 72 bytes), no prefix of it. Hashes are Argon2id; a bcrypt hash of before still logs in, once, and is
 * then stored anew as Argon2id.
 */
class PasswordHashingTest extends IntegrationTest {

    /** 100 ASCII characters: over bcrypt's 72 bytes. */
    private static final String LONG =
            "a long passphrase that goes on and on, well past the seventy-two bytes of bcrypt, " + "to the end 0123456";

    /** 73 bytes: one past bcrypt's reach. */
    private static final String SEVENTY_THREE = "x".repeat(72) + "1";

    private Api.Account signup(String password) {
        String email = "hash-" + UUID.randomUUID() + "@example.com";
        Api.Response response = api().post("/api/v1/auth/signup", Map.of("email", email, "password", password));
        assertThat(response.status()).as(response.toString()).isEqualTo(201);
        return new Api.Account(
                email,
                UUID.fromString(response.json().get("customer_id").asString()),
                UUID.fromString(response.json().get("organization_id").asString()),
                UUID.fromString(response.json().get("project_id").asString()));
    }

    private Api.Response login(String email, String password) {
        return api().post("/api/v1/auth/login", Map.of("email", email, "password", password));
    }

    private String hashOf(UUID customerId) {
        return single(String.class, "select password_hash from customers where id = ?", customerId);
    }

    private void storeHash(UUID customerId, String hash) {
        jdbc.sql("update customers set password_hash = ? where id = ?")
                .params(hash, customerId)
                .update();
    }

    /** What the bcrypt of before made of a password over 72 bytes: the Base64 of its SHA-256. */
    private static String reduced(String password) throws Exception {
        return Base64.getEncoder()
                .encodeToString(MessageDigest.getInstance("SHA-256").digest(password.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void shouldLogInALongPasswordAsGivenAndNeitherItsDigestNorItsFirst72Bytes() throws Exception {
        assertThat(LONG.getBytes(StandardCharsets.UTF_8)).hasSizeGreaterThan(72);
        Api.Account account = signup(LONG);

        assertProblem(login(account.email(), reduced(LONG)), 401, "invalid_credentials");
        assertProblem(login(account.email(), LONG.substring(0, 72)), 401, "invalid_credentials");
        assertThat(login(account.email(), LONG).status()).isEqualTo(200);
        assertThat(hashOf(account.customerId())).startsWith("{argon2}$argon2id$");
    }

    @Test
    void shouldRefuseA73BytePasswordThatDiffersOnlyInItsLastByte() {
        Api.Account account = signup(SEVENTY_THREE);

        assertProblem(login(account.email(), "x".repeat(72) + "2"), 401, "invalid_credentials");
        assertProblem(login(account.email(), "x".repeat(72)), 401, "invalid_credentials");
        assertThat(login(account.email(), SEVENTY_THREE).status()).isEqualTo(200);
    }

    @Test
    void shouldUpgradeABcryptHashToArgon2idAtTheNextLogin() {
        Api.Account account = signup(Api.PASSWORD);
        String bcrypt = "{bcrypt}" + new BCryptPasswordEncoder().encode(Api.PASSWORD);
        storeHash(account.customerId(), bcrypt);

        assertThat(login(account.email(), Api.PASSWORD).status()).isEqualTo(200);

        assertThat(hashOf(account.customerId()))
                .isNotEqualTo(bcrypt)
                .startsWith("{argon2}$argon2id$v=19$m=19456,t=2,p=1$");
        assertThat(login(account.email(), Api.PASSWORD).status()).isEqualTo(200);
        assertProblem(login(account.email(), "not the password"), 401, "invalid_credentials");
    }

    @Test
    void shouldNotUpgradeOnAWrongPassword() {
        Api.Account account = signup(Api.PASSWORD);
        String bcrypt = "{bcrypt}" + new BCryptPasswordEncoder().encode(Api.PASSWORD);
        storeHash(account.customerId(), bcrypt);

        assertProblem(login(account.email(), "not the password"), 401, "invalid_credentials");

        assertThat(hashOf(account.customerId())).isEqualTo(bcrypt);
    }

    @Test
    void shouldLogInALongPasswordOfABcryptHashOfBeforeButNeverItsDigest() throws Exception {
        Api.Account account = signup(Api.PASSWORD);
        // as the bcrypt of before stored a password over 72 bytes
        storeHash(account.customerId(), "{bcrypt}" + new BCryptPasswordEncoder().encode(reduced(LONG)));

        assertProblem(login(account.email(), reduced(LONG)), 401, "invalid_credentials");
        assertProblem(login(account.email(), LONG.substring(0, 99) + "7"), 401, "invalid_credentials");
        assertThat(hashOf(account.customerId())).startsWith("{bcrypt}");

        assertThat(login(account.email(), LONG).status()).isEqualTo(200);
        assertThat(hashOf(account.customerId())).startsWith("{argon2}$argon2id$");
        assertProblem(login(account.email(), reduced(LONG)), 401, "invalid_credentials");
        assertThat(login(account.email(), LONG).status()).isEqualTo(200);
    }

    @Test
    void shouldUpgradeWhenASignedInCustomerConfirmsAChangeWithThePassword() {
        Api api = api();
        Api.Account account = api.signup();
        storeHash(account.customerId(), "{bcrypt}" + new BCryptPasswordEncoder().encode(Api.PASSWORD));

        Api.Response change = api.put(
                "/api/v1/account/email",
                Map.of("new_email", "moved-" + UUID.randomUUID() + "@example.com", "current_password", Api.PASSWORD));

        assertThat(change.status()).as(change.toString()).isEqualTo(202);
        assertThat(hashOf(account.customerId())).startsWith("{argon2}$argon2id$");
    }
}
