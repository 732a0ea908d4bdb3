package com.kvportal.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.IntegrationTest;
import java.net.http.HttpRequest;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.TestPropertySource;

/**
 * With Stripe configured the sandbox is off: none of the beans of its tree exist (its one switch, {@link SandboxWing},
 * is off), its paths are plain 404s and the database holds no table of it.
 */
@TestPropertySource(
        properties = {"STRIPE_SECRET_KEY=sk_test_x", "STRIPE_PRICE_PRO=price_x", "PAYMENT_WEBHOOK_SECRET=whsec_x"})
class SandboxDisabledTest extends IntegrationTest {

    @Autowired
    ApplicationContext context;

    private int status(String method, String path) {
        return api().sendRaw(
                        method,
                        path,
                        HttpRequest.BodyPublishers.ofString(method.equals("GET") ? "" : "email=a%40b.c"),
                        Map.of(
                                "Authorization",
                                "Bearer sk_test_x",
                                "Content-Type",
                                "application/x-www-form-urlencoded"))
                .status();
    }

    @Test
    void shouldAnswer404OnEverySandboxPath() {
        assertThat(status("GET", "/sandbox/stripe/v1/customers/cus_x")).isEqualTo(404);
        assertThat(status("POST", "/sandbox/stripe/v1/customers")).isEqualTo(404);
        assertThat(status("GET", "/sandbox/checkout/x")).isEqualTo(404);
        assertThat(status("POST", "/sandbox/checkout/x/pay")).isEqualTo(404);
        assertThat(status("GET", "/sandbox/portal/x")).isEqualTo(404);
        assertThat(status("POST", "/sandbox/subscriptions/sub_x/advance")).isEqualTo(404);
        assertThat(status("POST", "/sandbox/customers/cus_x/card")).isEqualTo(404);
    }

    @Test
    void shouldRegisterNoSandboxBeans() {
        assertThat(SandboxWingTest.componentsOfTheTree()).hasSizeGreaterThan(20);
        for (Class<?> component : SandboxWingTest.componentsOfTheTree()) {
            assertThat(context.getBeanNamesForType(component))
                    .as(component.getName())
                    .isEmpty();
        }
        // nor anything else of the tree: its settings, a bean method's product
        assertThat(SandboxWingTest.sandboxBeans(context)).isEmpty();
        assertThat(context.getBeanNamesForType(SandboxProperties.class)).isEmpty();
    }

    @Test
    void shouldKeepNoSandboxTableInAnySchema() {
        assertThat(SandboxSchemaTest.sandboxTables(jdbc)).isEmpty();
        assertThat(count("select count(*) from pg_namespace where nspname = 'sandbox'"))
                .isZero();
    }
}
