package com.kvportal.mail;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.kvportal.mail.sandbox.MailSandbox;
import org.junit.jupiter.api.Test;

/** The mail sandbox runs where the payment sandbox may: on a loopback base URL, or anywhere with SANDBOX=on. */
class MailSandboxRuleTest {

    @Test
    void shouldRunOnALoopbackBaseUrlOrWithSandboxOn() {
        assertThatCode(() -> MailSandbox.refuseUnlessLocal(true, "", "http://localhost:8080"))
                .doesNotThrowAnyException();
        assertThatCode(() -> MailSandbox.refuseUnlessLocal(false, "on", "https://portal.example.com"))
                .doesNotThrowAnyException();
    }

    @Test
    void shouldRefuseAPublicBaseUrlWithoutSmtpUrlSayingWhatToSet() {
        assertThatThrownBy(() -> MailSandbox.refuseUnlessLocal(false, "", "https://portal.example.com"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("https://portal.example.com")
                .hasMessageContaining("Set SMTP_URL")
                .hasMessageContaining("SANDBOX=on");
    }
}
