package com.kvportal.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.kvportal.support.PropertiesContext;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/** The typed settings: defaults that make a bare start work, and refusal of what cannot work. */
@Tag("spring")
class SettingsTest {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties({AppProperties.class, PaymentProperties.class})
    static class Settings {}

    private final ApplicationContextRunner runner = PropertiesContext.of(Settings.class);

    @Test
    void aBareStartHasTheLocalBaseUrlAndTheSandbox() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(AppProperties.class)).isEqualTo(new AppProperties("", "localhost", 8080));
            PaymentProperties payment = context.getBean(PaymentProperties.class);
            assertThat(PaymentProvider.selectsSandbox(payment.stripeSecretKey()))
                    .isTrue();
            assertThat(payment.webhookSecret()).isEmpty();
        });
    }

    @Test
    void aBaseUrlThatIsNoHttpUrlStopsTheStart() {
        runner.withPropertyValues("kvportal.app.base-url=portal.example.com")
                .run(context -> assertThat(context).hasFailed());
    }

    @Test
    void stripeWithoutWebhookSecretStopsTheStartAndSaysWhatIsMissing() {
        assertThatThrownBy(() -> new PaymentProperties("sk_live_x", "price_x", "", ""))
                .hasMessageContaining("PAYMENT_WEBHOOK_SECRET is required");
        assertThatThrownBy(() -> new PaymentProperties("sk_live_x", "", "whsec_x", ""))
                .hasMessageContaining("STRIPE_PRICE_PRO is required");
        runner.withPropertyValues("kvportal.payment.stripe-secret-key=sk_live_x")
                .run(context -> assertThat(context).hasFailed());
    }

    @Test
    void stripeWithItsPriceAndSecretIsAccepted() {
        assertThat(new PaymentProperties("sk_live_x", "price_x", "whsec_x", "").stripeSecretKey())
                .isEqualTo("sk_live_x");
    }
}
