package com.kvportal.mail;

import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.kvportal.support.IntegrationTest;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The outbox against an SMTP server outside the service ({@code SMTP_URL}): a GreenMail the test stops and starts
 * again, so that it can count every message that reaches it.
 */
@TestPropertySource(
        properties = {
            "kvportal.mail.poll-interval=300ms",
            "kvportal.mail.retry-initial=200ms",
            "kvportal.mail.retry-max=1s",
            "kvportal.mail.smtp-timeout=2s",
            "MAIL_FROM=Acme Portal <portal@acme.test>"
        })
class MailOutboxTest extends IntegrationTest {

    private static final int PORT = freePort();
    private static GreenMail smtp = start();

    @Autowired
    Mailer mailer;

    @Autowired
    TransactionTemplate transactions;

    @DynamicPropertySource
    static void smtp(DynamicPropertyRegistry registry) {
        registry.add("SMTP_URL", () -> "smtp://127.0.0.1:" + PORT);
    }

    @AfterAll
    static void stopSmtp() {
        smtp.stop();
    }

    private static GreenMail start() {
        ServerSetup setup = new ServerSetup(PORT, "127.0.0.1", ServerSetup.PROTOCOL_SMTP);
        setup.setServerStartupTimeout(20_000);
        GreenMail server = new GreenMail(setup);
        server.start();
        return server;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void send(String to, String subject) {
        transactions.executeWithoutResult(status -> mailer.send(
                new Mail(to, subject, "verify-email", Map.of("email", to, "link", "http://localhost/verify-email"))));
    }

    private static List<MimeMessage> received(String to) {
        return Arrays.stream(smtp.getReceivedMessages())
                .filter(m -> {
                    try {
                        return m.getAllRecipients()[0].toString().equals(to);
                    } catch (jakarta.mail.MessagingException e) {
                        throw new IllegalStateException(e);
                    }
                })
                .toList();
    }

    @Test
    void shouldDeliverEveryMessageOnceAfterTheSmtpServerWasDown() throws Exception {
        String to = "outage-" + UUID.randomUUID() + "@example.com";
        smtp.stop();
        try {
            long started = System.nanoTime();
            for (int i = 0; i < 20; i++) {
                send(to, "Message " + i);
            }
            // queuing never waits for SMTP
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
            await().atMost(Duration.ofSeconds(10))
                    .until(() ->
                            count("select count(*) from mail_outbox where recipient = ? and attempts > 0", to) > 0);
            Thread.sleep(1_000);
        } finally {
            smtp = start();
        }

        await().atMost(Duration.ofSeconds(20)).until(() -> received(to).size() >= 20);
        Thread.sleep(1_000);
        List<MimeMessage> messages = received(to);
        assertThat(messages).hasSize(20);
        assertThat(messages.stream().map(m -> {
                    try {
                        return m.getSubject();
                    } catch (jakarta.mail.MessagingException e) {
                        throw new IllegalStateException(e);
                    }
                }))
                .containsExactlyInAnyOrderElementsOf(java.util.stream.IntStream.range(0, 20)
                        .mapToObj(i -> "Message " + i)
                        .toList());
        assertThat(count("select count(*) from mail_outbox where recipient = ? and sent_at is null", to))
                .isZero();
    }

    @Test
    void shouldSendTextAndHtmlWithTheOutboxMessageIdFromMailFrom() throws Exception {
        String to = "parts-" + UUID.randomUUID() + "@example.com";

        send(to, "Parts");

        await().atMost(Duration.ofSeconds(10)).until(() -> received(to).size() == 1);
        MimeMessage message = received(to).get(0);
        String messageId = jdbc.sql("select message_id from mail_outbox where recipient = ?")
                .param(to)
                .query(String.class)
                .single();
        assertThat(message.getMessageID()).isEqualTo(messageId).endsWith("@acme.test>");
        assertThat(message.getFrom()[0].toString()).isEqualTo("Acme Portal <portal@acme.test>");
        String raw = new String(message.getRawInputStream().readAllBytes());
        assertThat(message.getContentType()).startsWith("multipart/");
        assertThat(com.icegreen.greenmail.util.GreenMailUtil.getWholeMessage(message))
                .contains("text/plain")
                .contains("text/html");
        assertThat(raw).isNotEmpty();
    }

    @Test
    void shouldHaveNoMailSandboxWithAnSmtpServerConfigured() {
        assertProblem(api().get("/sandbox/mail"), 404, "not_found");
        assertProblem(api().get("/sandbox/mail/messages?to=x@example.com"), 404, "not_found");
    }

    @Test
    void shouldLeaveAMessageThatAnotherInstanceHoldsToThatInstance() throws Exception {
        // the message must be committed before it is held, so this instance may send it in between: then try again
        for (int attempt = 1; ; attempt++) {
            String to = "held-" + UUID.randomUUID() + "@example.com";
            UUID id = UUID.randomUUID();
            jdbc.sql("insert into mail_outbox (id, message_id, recipient, subject, text_body, html_body)"
                            + " values (?, ?, ?, 'Held', 'text', '<p>html</p>')")
                    .params(id, "<" + id + "@acme.test>", to)
                    .update();
            // another instance has claimed it (and has not finished sending): this one skips it
            Boolean held = transactions.execute(status -> {
                boolean untouched = jdbc.sql(
                                "select sent_at is null and attempts = 0 from mail_outbox where id = ? for update")
                        .param(id)
                        .query(Boolean.class)
                        .single();
                if (!untouched) {
                    return false;
                }
                try {
                    Thread.sleep(1_500);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                assertThat(received(to)).isEmpty();
                return true;
            });
            if (Boolean.TRUE.equals(held)) {
                await().atMost(Duration.ofSeconds(10)).until(() -> received(to).size() == 1);
                return;
            }
            assertThat(attempt).as("sent before it could be held, every time").isLessThan(5);
        }
    }
}
