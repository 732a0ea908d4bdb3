package com.kvportal.mail.sandbox;

import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.kvportal.mail.Mail;
import com.kvportal.mail.Mailer;
import com.kvportal.support.Api;
import com.kvportal.support.Inbox;
import com.kvportal.support.IntegrationTest;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

/** The mail sandbox: a real SMTP server inside the service, read over HTTP by a person and by scripts. */
class MailSandboxTest extends IntegrationTest {

    @Autowired
    Mailer mailer;

    @Autowired
    TransactionTemplate transactions;

    private String send(String email, String link) {
        transactions.executeWithoutResult(status -> mailer.send(
                new Mail(email, "Confirm your email address", "verify-email", Map.of("email", email, "link", link))));
        return email;
    }

    private static String address() {
        return "sandbox-" + UUID.randomUUID() + "@example.com";
    }

    @Test
    void shouldShowASentMessageWithItsTextAndHtmlParts() {
        String to = send(address(), "http://localhost/verify-email?token=abc");

        JsonNode message = new Inbox(baseUrl(), to).awaitMessage("Confirm your email address");

        assertThat(message.get("to").asString()).isEqualTo(to);
        assertThat(message.get("id").asString()).isNotBlank();
        assertThat(message.get("sent_at").asString()).endsWith("Z");
        assertThat(message.get("text").asString()).contains("http://localhost/verify-email?token=abc");
        assertThat(message.get("html").asString()).contains("<a href=\"http://localhost/verify-email?token=abc\"");
        assertThat(Inbox.token(message)).isEqualTo("abc");
    }

    @Test
    void shouldEscapeWhatTheUserWroteInTheHtmlPart() {
        String to = send(address(), "http://localhost/x?a=1&b=<script>alert(1)</script>");

        JsonNode message = new Inbox(baseUrl(), to).awaitMessage("Confirm");

        assertThat(message.get("html").asString()).doesNotContain("<script>").contains("&lt;script&gt;");
    }

    @Test
    void shouldListMessagesNewestFirstAndOnlyThoseToTheAddress() {
        String to = address();
        send(to, "http://localhost/first");
        Inbox inbox = new Inbox(baseUrl(), to);
        inbox.awaitMessage("Confirm");
        send(to, "http://localhost/second");
        send(address(), "http://localhost/someone-else");

        await().atMost(Duration.ofSeconds(10)).until(() -> inbox.messages().size() == 2);

        assertThat(inbox.messages()).extracting(m -> Inbox.link(m).getPath()).containsExactly("/second", "/first");
    }

    @Test
    void shouldShowThePageWithClickableLinksAndTheHtmlIsolated() {
        String to = send(address(), "http://localhost/verify-email?token=page-token");
        new Inbox(baseUrl(), to).awaitMessage("Confirm");

        Api.Response page = api().get("/sandbox/mail?to=" + to);

        assertThat(page.status()).isEqualTo(200);
        assertThat(page.header("Content-Type")).startsWith("text/html");
        assertThat(page.body())
                .contains("<a class=\"mail-link\" href=\"http://localhost/verify-email?token=page-token\">")
                .contains("<iframe class=\"mail-html\"")
                .contains("sandbox=\"allow-popups");
    }

    @Test
    void shouldAnswer404ToARequestThatAProxyForwarded() {
        Api api = api();
        for (String path : new String[] {"/sandbox/mail", "/sandbox/mail/messages"}) {
            for (String header : new String[] {"X-Forwarded-For", "Forwarded"}) {
                Api.Response response = api.sendRaw(
                        "GET",
                        path,
                        HttpRequest.BodyPublishers.noBody(),
                        Map.of(header, header.equals("Forwarded") ? "for=127.0.0.1" : "127.0.0.1"));
                assertProblem(response, 404, "not_found");
            }
        }
    }

    @Test
    void shouldLetAForwardedRequestPresentingTheSandboxKeyReadTheMessagesAndNoOtherKey() {
        String to = send(address(), "http://localhost/verify-email?token=keyed");
        new Inbox(baseUrl(), to).awaitMessage("Confirm");
        Map<String, String> forwarded = Map.of("X-Forwarded-For", "203.0.113.9");

        Api.Response keyed = Api.withKey(baseUrl(), SANDBOX_KEY)
                .sendRaw("GET", "/sandbox/mail/messages?to=" + to, HttpRequest.BodyPublishers.noBody(), forwarded);
        assertThat(keyed.status()).as(keyed.toString()).isEqualTo(200);
        assertThat(keyed.json().get("messages").size()).isEqualTo(1);

        Api.Response madeUp = Api.withKey(baseUrl(), "sk_test_madeUpKeyOfTwentyFourXx")
                .sendRaw("GET", "/sandbox/mail/messages?to=" + to, HttpRequest.BodyPublishers.noBody(), forwarded);
        assertProblem(madeUp, 404, "not_found");
    }

    @Test
    void shouldKeepTheMessageInTheOutboxHeadersOnlyOnceSent() {
        String to = send(address(), "http://localhost/verify-email?token=secret-token");
        new Inbox(baseUrl(), to).awaitMessage("Confirm");

        await().atMost(Duration.ofSeconds(10))
                .until(() ->
                        count("select count(*) from mail_outbox where recipient = ? and sent_at is not null", to) == 1);
        assertThat(count(
                        "select count(*) from mail_outbox where recipient = ? and (text_body <> '' or html_body <> '')",
                        to))
                .isZero();
    }

    @Test
    void shouldSendAMessageThatACrashedInstanceLeftInTheOutbox() {
        String to = address();
        // committed, then the instance died before sending: only the poller can find it
        jdbc.sql("insert into mail_outbox (id, message_id, recipient, subject, text_body, html_body)"
                        + " values (?, ?, ?, 'Left behind', 'text', '<p>html</p>')")
                .params(UUID.randomUUID(), "<" + UUID.randomUUID() + "@localhost>", to)
                .update();

        assertThat(new Inbox(baseUrl(), to)
                        .awaitMessage("Left behind")
                        .get("text")
                        .asString())
                .isEqualTo("text");
    }

    @Test
    void shouldNeverSendAMessageWhoseTransactionRolledBack() throws Exception {
        String to = address();
        transactions.executeWithoutResult(status -> {
            mailer.send(new Mail(to, "Rolled back", "verify-email", Map.of("email", to, "link", "http://x")));
            status.setRollbackOnly();
        });
        send(to, "http://localhost/after");

        new Inbox(baseUrl(), to).awaitMessage("Confirm");
        Thread.sleep(500);
        assertThat(new Inbox(baseUrl(), to).count("Rolled back")).isZero();
    }
}
