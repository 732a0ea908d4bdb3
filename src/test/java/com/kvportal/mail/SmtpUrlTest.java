package com.kvportal.mail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.mail.javamail.MimeMessageHelper;

class SmtpUrlTest {

    @Test
    void shouldReadSmtpWithStarttlsAndPercentEncodedCredentials() {
        SmtpUrl url = SmtpUrl.parse("smtp://mailer%40acme.com:p%40ss%3Aword@mail.acme.com:587?starttls=required");

        assertThat(url.implicitTls()).isFalse();
        assertThat(url.host()).isEqualTo("mail.acme.com");
        assertThat(url.port()).isEqualTo(587);
        assertThat(url.username()).isEqualTo("mailer@acme.com");
        assertThat(url.password()).isEqualTo("p@ss:word");
        assertThat(url.starttls()).isEqualTo(SmtpUrl.Starttls.REQUIRED);
        var properties = url.sender(Duration.ofSeconds(3)).getJavaMailProperties();
        assertThat(properties.getProperty("mail.smtp.starttls.required")).isEqualTo("true");
        assertThat(properties.getProperty("mail.smtp.auth")).isEqualTo("true");
        assertThat(properties.getProperty("mail.smtp.timeout")).isEqualTo("3000");
    }

    @Test
    void shouldReadSmtpsWithItsDefaultPort() {
        SmtpUrl url = SmtpUrl.parse("smtps://user:secret@smtp.example.com");

        assertThat(url.implicitTls()).isTrue();
        assertThat(url.port()).isEqualTo(465);
        var sender = url.sender(Duration.ofSeconds(10));
        assertThat(sender.getProtocol()).isEqualTo("smtps");
        assertThat(sender.getJavaMailProperties().getProperty("mail.smtps.auth"))
                .isEqualTo("true");
    }

    @Test
    void shouldSendWithoutAuthenticationWithoutCredentials() {
        SmtpUrl url = SmtpUrl.parse("smtp://127.0.0.1:2525");

        assertThat(url.username()).isNull();
        assertThat(url.starttls()).isEqualTo(SmtpUrl.Starttls.OFF);
        assertThat(url.sender(Duration.ofSeconds(1)).getJavaMailProperties().getProperty("mail.smtp.auth"))
                .isEqualTo("false");
    }

    @Test
    void shouldNeverShowThePassword() {
        SmtpUrl url = SmtpUrl.parse("smtp://user:hunter2-secret@mail.example.com:587?starttls=required");

        assertThat(url.toString()).doesNotContain("hunter2-secret").contains("mail.example.com:587");
        assertThatThrownBy(() -> SmtpUrl.parse("smtp://user:hunter2-secret@mail.example.com?starttls=maybe"))
                .isInstanceOf(IllegalArgumentException.class)
                .message()
                .doesNotContain("hunter2-secret");
    }

    @Test
    void shouldSendOverSmtpsWithCredentials() throws Exception {
        ServerSetup setup = new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTPS).dynamicPort();
        setup.setServerStartupTimeout(20_000);
        GreenMail server = new GreenMail(setup);
        server.start();
        try {
            server.setUser("mailer@acme.test", "mailer", "s3cret:pass");
            int port = server.getSmtps().getPort();
            var sender = SmtpUrl.parse("smtps://mailer:s3cret%3Apass@127.0.0.1:" + port + "?ssl_trust=127.0.0.1")
                    .sender(Duration.ofSeconds(5));
            var message = sender.createMimeMessage();
            var helper = new MimeMessageHelper(message, true, "UTF-8");
            helper.setFrom("portal@acme.test");
            helper.setTo("ada@example.com");
            helper.setSubject("Over TLS");
            helper.setText("text", "<p>html</p>");

            sender.send(message);

            assertThat(server.waitForIncomingEmail(5_000, 1)).isTrue();
            assertThat(server.getReceivedMessages()[0].getSubject()).isEqualTo("Over TLS");
        } finally {
            server.stop();
        }
    }

    @Test
    void shouldRequireStarttlsToAHostBeyondLoopbackUnlessSwitchedOffOutright() {
        SmtpUrl unsaid = SmtpUrl.parse("smtp://user:secret@mail.example.com:587");

        assertThat(unsaid.starttls()).isEqualTo(SmtpUrl.Starttls.REQUIRED);
        var properties = unsaid.sender(Duration.ofSeconds(3)).getJavaMailProperties();
        assertThat(properties.getProperty("mail.smtp.starttls.enable")).isEqualTo("true");
        assertThat(properties.getProperty("mail.smtp.starttls.required")).isEqualTo("true");
        assertThat(unsaid.clearTextWarning()).isEmpty();
        assertThatThrownBy(() -> SmtpUrl.parse("smtp://user:secret@mail.example.com:587?starttls=optional"))
                .hasMessageContaining("starttls=required")
                .message()
                .doesNotContain("secret@");
        assertThat(SmtpUrl.parse("smtp://10.0.0.5:25").starttls()).isEqualTo(SmtpUrl.Starttls.REQUIRED);

        SmtpUrl clear = SmtpUrl.parse("smtp://user:secret@mail.example.com:587?starttls=off");

        assertThat(clear.starttls()).isEqualTo(SmtpUrl.Starttls.OFF);
        assertThat(clear.sender(Duration.ofSeconds(3)).getJavaMailProperties().getProperty("mail.smtp.starttls.enable"))
                .isNull();
        assertThat(clear.clearTextWarning()).hasValueSatisfying(warning -> assertThat(warning)
                .contains("in clear")
                .contains("mail.example.com:587")
                .doesNotContain("secret"));
    }

    @Test
    void shouldLeaveARelayOnLoopbackInClearUnlessAsked() {
        for (String host : new String[] {"localhost", "127.0.0.1", "127.0.0.2", "[::1]"}) {
            SmtpUrl url = SmtpUrl.parse("smtp://" + host + ":2525");

            assertThat(url.starttls()).as(host).isEqualTo(SmtpUrl.Starttls.OFF);
            assertThat(url.clearTextWarning()).as(host).isEmpty();
        }
        assertThat(SmtpUrl.parse("smtp://localhost:2525?starttls=optional").starttls())
                .isEqualTo(SmtpUrl.Starttls.OPTIONAL);
        assertThat(SmtpUrl.parse("smtp://localhost.example.com:25").starttls()).isEqualTo(SmtpUrl.Starttls.REQUIRED);
    }

    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void shouldWarnAtStartWhenMailTravelsInClear(CapturedOutput output) {
        new OutboxDelivery(null, null, settings("smtp://mail.example.com:25?starttls=off"), null);

        assertThat(output.getAll()).contains("WARN").contains("travels in clear");
    }

    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void shouldNotWarnWhenMailIsEncrypted(CapturedOutput output) {
        new OutboxDelivery(null, null, settings("smtp://mail.example.com:587"), null);

        assertThat(output.getAll()).contains("Mail goes to").doesNotContain("travels in clear");
    }

    private static MailProperties settings(String smtpUrl) {
        Duration any = Duration.ofSeconds(1);
        return new MailProperties(
                smtpUrl, "kv-portal <no-reply@localhost>", any, any, any, any, any, any, any, any, any, true);
    }

    @Test
    void shouldRefuseWhatIsNoSmtpUrl() {
        assertThatThrownBy(() -> SmtpUrl.parse("http://mail.example.com")).hasMessageContaining("smtp://");
        assertThatThrownBy(() -> SmtpUrl.parse("smtp:///nohost")).hasMessageContaining("host");
        assertThatThrownBy(() -> SmtpUrl.parse("smtps://mail.example.com?starttls=required"))
                .hasMessageContaining("smtps://");
    }
}
