package com.kvportal.common.encryption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.kvportal.KvPortalApplication;
import com.kvportal.common.PaymentProvider;
import com.kvportal.support.Api;
import com.kvportal.support.TestDatabase;
import dev.samstevens.totp.code.DefaultCodeGenerator;
import dev.samstevens.totp.code.HashingAlgorithm;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The stored secrets across starts of the whole service on one database: what an older version stored in clear is
 * sealed at the next start; a rotation (a new key in front of the old) still opens every secret and seals them all
 * anew under the new key; a start without the key that sealed them is refused, naming the key, and changes nothing.
 * Each test has a database of its own.
 */
@Tag("spring")
class SecretsAtRestTest {

    private static final SecretColumn TOTP = SecretColumn.of("customers", "totp_secret");
    private static final SecretColumn WEBHOOK =
            new SecretColumn("webhook_endpoints", "secret", "webhook_endpoints.secret");
    private static final SecretColumn SANDBOX_KEY = SecretColumn.of("sandbox.sandbox_api_key", "key");

    private final String url = TestDatabase.freshDatabaseUrl();
    private final JdbcClient jdbc = JdbcClient.create(new DriverManagerDataSource(url));
    private final byte[] a = SecretBoxTest.key();
    private final byte[] b = SecretBoxTest.key();

    /** What a customer and the sandbox stored: the secrets as the API showed them once. */
    private record Stored(
            String email,
            UUID customerId,
            String totpSecret,
            UUID endpointId,
            String webhookSecret,
            String sandboxKey) {}

    @Test
    void shouldSealAtTheNextStartWhatAnOlderVersionStoredInClear() {
        Stored stored;
        try (ConfigurableApplicationContext app = start(keys(a))) {
            stored = storeSecrets(app);
        }
        // as the version before stored them
        jdbc.sql("update customers set totp_secret = ? where id = ?")
                .params(stored.totpSecret(), stored.customerId())
                .update();
        jdbc.sql("update webhook_endpoints set secret = ?, previous_secret = ? where id = ?")
                .params(stored.webhookSecret(), "whsec_previousInClear", stored.endpointId())
                .update();
        jdbc.sql("update sandbox.sandbox_api_key set key = ?")
                .param(stored.sandboxKey())
                .update();

        try (ConfigurableApplicationContext app = start(keys(a))) {
            assertNothingInClear(stored);
            SecretBox box = new SecretBox(List.of(a));
            assertThat(box.open(column("totp_secret", "customers", stored.customerId()), TOTP, stored.customerId()))
                    .isEqualTo(stored.totpSecret());
            assertThat(box.open(
                            column("secret", "webhook_endpoints", stored.endpointId()), WEBHOOK, stored.endpointId()))
                    .isEqualTo(stored.webhookSecret());
            assertThat(box.open(
                            column("previous_secret", "webhook_endpoints", stored.endpointId()),
                            WEBHOOK,
                            stored.endpointId()))
                    .isEqualTo("whsec_previousInClear");
            assertThat(app.getBean(PaymentProvider.class).secretKey()).isEqualTo(stored.sandboxKey());
            assertThat(loginWithCode(app, stored).status()).isEqualTo(200);
        }
    }

    @Test
    void shouldOpenEverySecretAfterARotationAndSealThemAllUnderTheNewKey() {
        Stored stored;
        try (ConfigurableApplicationContext app = start(keys(a))) {
            stored = storeSecrets(app);
        }

        try (ConfigurableApplicationContext app = start(keys(b, a))) {
            assertThat(loginWithCode(app, stored).status()).isEqualTo(200);
            assertThat(app.getBean(PaymentProvider.class).secretKey()).isEqualTo(stored.sandboxKey());
            // sealed anew under B at the start, and a new secret is sealed under B: B alone opens every one
            SecretBox onlyB = new SecretBox(List.of(b));
            assertThat(onlyB.open(column("totp_secret", "customers", stored.customerId()), TOTP, stored.customerId()))
                    .isEqualTo(stored.totpSecret());
            assertThat(onlyB.open(
                            jdbc.sql("select key from sandbox.sandbox_api_key")
                                    .query(String.class)
                                    .single(),
                            SANDBOX_KEY,
                            true))
                    .isEqualTo(stored.sandboxKey());
            Api api = new Api(base(app));
            api.signup();
            api.verifyEmail();
            Api.WebhookEndpoint created = api.createWebhookEndpoint(Map.of("url", "https://hooks.example.invalid/b"));
            UUID id = UUID.fromString(created.id());
            assertThat(onlyB.open(column("secret", "webhook_endpoints", id), WEBHOOK, id))
                    .isEqualTo(created.secret());
            assertThat(onlyB.open(
                            column("secret", "webhook_endpoints", stored.endpointId()), WEBHOOK, stored.endpointId()))
                    .isEqualTo(stored.webhookSecret());
        }
        // the old key dropped: every secret opens under B alone (a secret left under A would refuse the start)
        try (ConfigurableApplicationContext app = start(keys(b))) {
            assertThat(app.getBean(PaymentProvider.class).secretKey()).isEqualTo(stored.sandboxKey());
        }
    }

    @Test
    void shouldRefuseToStartWithoutTheKeyThatSealedTheSecretsAndChangeNothing() {
        Stored stored;
        try (ConfigurableApplicationContext app = start(keys(a))) {
            stored = storeSecrets(app);
        }
        String totpBefore = column("totp_secret", "customers", stored.customerId());

        assertThatThrownBy(() -> start(keys(b)).close())
                .satisfies(e -> assertThat(NestedExceptionUtils.getMostSpecificCause(e))
                        // the sandbox's key or the start-up step of the other secrets, whichever comes first
                        .isInstanceOfAny(EncryptionRefused.class, SecretBox.UnreadableSecret.class)
                        .hasMessageContaining("KVPORTAL_ENCRYPTION_KEYS does not hold")
                        .hasMessageContaining(java.util.HexFormat.of().toHexDigits(SecretBox.keyId(a))));

        assertThat(column("totp_secret", "customers", stored.customerId())).isEqualTo(totpBefore);
        assertThat(new SecretBox(List.of(a)).open(totpBefore, TOTP, stored.customerId()))
                .isEqualTo(stored.totpSecret());
    }

    @Test
    void shouldStartWithANewKeyOnceTheLostKeysSecretsAreClearedAsTheOperationsGuideSays() {
        Stored stored;
        try (ConfigurableApplicationContext app = start(keys(a))) {
            stored = storeSecrets(app);
        }

        // docs/operations.md, "A lost encryption key"
        jdbc.sql(
                        "delete from recovery_codes where customer_id in (select id from customers where totp_secret is not null)")
                .update();
        jdbc.sql("update customers set totp_secret = null, totp_enabled_at = null, totp_last_step = null"
                        + " where totp_secret is not null")
                .update();
        jdbc.sql("update webhook_endpoints set secret = 'whsec_lost', previous_secret = null,"
                        + " previous_secret_until = null, disabled = true")
                .update();
        jdbc.sql("delete from sandbox.sandbox_api_key").update();

        try (ConfigurableApplicationContext app = start(keys(b))) {
            // two-step login is off: the password alone signs in, and it can be set up again
            Api api = new Api(base(app));
            Api.Response login =
                    api.post("/api/v1/auth/login", Map.of("email", stored.email(), "password", Api.PASSWORD));
            assertThat(login.status()).as(login.toString()).isEqualTo(200);
            assertThat(login.json().path("mfa_required").asBoolean()).isFalse();
            assertThat(api.post("/api/v1/account/totp", Map.of("current_password", Api.PASSWORD))
                            .status())
                    .isEqualTo(200);
            // the disabled endpoint's secret is rolled, under the new key
            String path = "/api/v1/webhook-endpoints/" + stored.endpointId();
            Api.Response rolled = api.post(path + "/secret/rotate");
            assertThat(rolled.status()).as(rolled.toString()).isEqualTo(200);
            assertThat(new SecretBox(List.of(b))
                            .open(
                                    column("secret", "webhook_endpoints", stored.endpointId()),
                                    WEBHOOK,
                                    stored.endpointId()))
                    .isEqualTo(rolled.json().get("secret").asString());
            // the sandbox made itself a new key
            assertThat(app.getBean(PaymentProvider.class).secretKey()).isNotEqualTo(stored.sandboxKey());
        }
    }

    @Test
    void shouldRefuseToStartOnDatabaseUrlWithoutKeys() {
        assertThatThrownBy(() -> start("").close())
                .satisfies(e -> assertThat(NestedExceptionUtils.getMostSpecificCause(e))
                        .isInstanceOf(EncryptionRefused.class)
                        .hasMessageContaining("DATABASE_URL is set but KVPORTAL_ENCRYPTION_KEYS is not")
                        .hasMessageContaining("openssl rand -base64 32"));
        // refused before the migrations: the database is as it was
        assertThat(jdbc.sql("select count(*) from pg_tables where schemaname = 'public'")
                        .query(Long.class)
                        .single())
                .isZero();
    }

    /** Signs up (verified), turns two-step login on and makes a webhook endpoint, as a customer does. */
    private Stored storeSecrets(ConfigurableApplicationContext app) {
        Api api = new Api(base(app));
        Api.Account account = api.signup();
        api.verifyEmail();
        Api.Response setup = api.post("/api/v1/account/totp", Map.of("current_password", Api.PASSWORD));
        assertThat(setup.status()).as(setup.toString()).isEqualTo(200);
        String secret = setup.json().get("secret").asString();
        long step = System.currentTimeMillis() / 30_000;
        Api.Response confirmed = api.post("/api/v1/account/totp/confirm", Map.of("code", code(secret, step - 1)));
        assertThat(confirmed.status()).as(confirmed.toString()).isEqualTo(200);
        Api.WebhookEndpoint endpoint = api.createWebhookEndpoint(Map.of("url", "https://hooks.example.invalid/a"));
        Stored stored = new Stored(
                account.email(),
                account.customerId(),
                secret,
                UUID.fromString(endpoint.id()),
                endpoint.secret(),
                app.getBean(PaymentProvider.class).secretKey());
        assertNothingInClear(stored);
        return stored;
    }

    private void assertNothingInClear(Stored stored) {
        assertThat(column("totp_secret", "customers", stored.customerId()))
                .startsWith("enc:")
                .doesNotContain(stored.totpSecret());
        assertThat(column("secret", "webhook_endpoints", stored.endpointId()))
                .startsWith("enc:")
                .doesNotContain(stored.webhookSecret())
                .doesNotContain(stored.webhookSecret().substring("whsec_".length()));
        assertThat(jdbc.sql("select key from sandbox.sandbox_api_key")
                        .query(String.class)
                        .single())
                .startsWith("enc:")
                .doesNotContain(stored.sandboxKey());
    }

    /** The password step, then the second step with the code of this moment. */
    private Api.Response loginWithCode(ConfigurableApplicationContext app, Stored stored) {
        Api api = new Api(base(app));
        Api.Response response =
                api.post("/api/v1/auth/login", Map.of("email", stored.email(), "password", Api.PASSWORD));
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return api.post(
                "/api/v1/auth/login/totp",
                Map.of("code", code(stored.totpSecret(), System.currentTimeMillis() / 30_000)));
    }

    private String column(String column, String table, UUID id) {
        return jdbc.sql("select " + column + " from " + table + " where id = ?")
                .param(id)
                .query(String.class)
                .single();
    }

    private ConfigurableApplicationContext start(String keys) {
        return new SpringApplicationBuilder(KvPortalApplication.class)
                .run(
                        "--server.port=0",
                        "--server.address=127.0.0.1",
                        "--DATABASE_URL=" + url,
                        "--KVPORTAL_ENCRYPTION_KEYS=" + keys,
                        "--kvportal.database.pool-size=3");
    }

    private static String base(ConfigurableApplicationContext app) {
        return "http://127.0.0.1:"
                + ((WebServerApplicationContext) app).getWebServer().getPort();
    }

    private static String keys(byte[]... keys) {
        return String.join(
                ",",
                java.util.Arrays.stream(keys)
                        .map(key -> Base64.getEncoder().encodeToString(key))
                        .toList());
    }

    private static String code(String secret, long step) {
        try {
            return new DefaultCodeGenerator(HashingAlgorithm.SHA1, 6).generate(secret, step);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
