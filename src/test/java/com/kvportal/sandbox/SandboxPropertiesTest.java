package com.kvportal.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** The sandbox's settings as its switch binds them, without the product's context. */
class SandboxPropertiesTest {

    private static SandboxProperties bound(Map<String, String> settings) {
        return new Binder(new MapConfigurationPropertySource(settings))
                .bindOrCreate(SandboxProperties.PREFIX, SandboxProperties.class);
    }

    @Test
    void shouldSendEventsToTheBillingWebhookByDefaultAndDoubleItsRetriesUpToAMinute() {
        SandboxProperties defaults = bound(Map.of());

        assertThat(defaults.webhookPath()).isEqualTo("/api/v1/billing/webhook");
        assertThat(defaults.forcedOn()).isFalse();
        assertThat(defaults.apiKey()).isEmpty();
        assertThat(defaults.draftGrace()).isEqualTo(Duration.ofHours(1));
        assertThat(defaults.retryAfter(1)).isEqualTo(Duration.ofSeconds(1));
        assertThat(defaults.retryAfter(3)).isEqualTo(Duration.ofSeconds(4));
        assertThat(defaults.retryAfter(40)).isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void shouldTakeOnAndAKeyOfItsOwn() {
        SandboxProperties set =
                bound(Map.of("kvportal.sandbox.mode", "on", "kvportal.sandbox.api-key", "sk_test_0123456789abcdefXYZ"));

        assertThat(set.forcedOn()).isTrue();
        assertThat(set.apiKey()).isEqualTo("sk_test_0123456789abcdefXYZ");
    }

    @Test
    void shouldRefuseAnotherModeOrAGuessableKey() {
        assertThatThrownBy(() -> bound(Map.of("kvportal.sandbox.mode", "yes")))
                .isInstanceOf(BindException.class)
                .rootCause()
                .hasMessageContaining("SANDBOX is 'yes'");
        assertThatThrownBy(() -> bound(Map.of("kvportal.sandbox.api-key", "sk_test_short")))
                .isInstanceOf(BindException.class)
                .rootCause()
                .hasMessageContaining("SANDBOX_API_KEY must be sk_test_");
        assertThatThrownBy(() -> bound(Map.of("kvportal.sandbox.api-key", "sk_live_0123456789abcdefXYZ")))
                .rootCause()
                .hasMessageContaining("SANDBOX_API_KEY must be sk_test_");
    }
}
