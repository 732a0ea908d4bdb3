package com.kvportal.mail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.kvportal.KvPortalApplication;
import com.kvportal.support.TestDatabase;
import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.modulith.test.ApplicationModuleTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The mail module booted alone ({@code @ApplicationModuleTest}: its own beans and those of the modules it declares,
 * the shared kernel with the database and its migrations, and the payment sandbox, kept off here by a Stripe
 * configuration no call reaches): no account, key, billing or usage bean exists, and a message queued in a transaction still reaches a
 * real SMTP server once that transaction commits, and none is queued when it rolls back.
 */
@Tag("spring")
@ApplicationModuleTest(
        classes = KvPortalApplication.class,
        mode = ApplicationModuleTest.BootstrapMode.DIRECT_DEPENDENCIES,
        webEnvironment = SpringBootTest.WebEnvironment.NONE)
class MailModuleTest {

    private static final GreenMail SMTP = startSmtp();

    @Autowired
    Mailer mailer;

    @Autowired
    TransactionTemplate transactions;

    @Autowired
    ApplicationContext context;

    @Autowired
    JdbcClient jdbc;

    @DynamicPropertySource
    static void settings(DynamicPropertyRegistry registry) {
        String url = TestDatabase.freshDatabaseUrl();
        registry.add("DATABASE_URL", () -> url);
        registry.add("SMTP_URL", () -> "smtp://127.0.0.1:" + SMTP.getSmtp().getPort());
        registry.add("kvportal.mail.poll-interval", () -> "300ms");
        // the payment sandbox is another module: a Stripe configuration that no call reaches keeps it off
        registry.add("STRIPE_SECRET_KEY", () -> "sk_test_" + "MailModuleTestNeverCalled");
        registry.add("STRIPE_PRICE_PRO", () -> "price_mail_module_test");
        registry.add("PAYMENT_WEBHOOK_SECRET", () -> "whsec_mail_module_test");
    }

    private static GreenMail startSmtp() {
        GreenMail smtp = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP).dynamicPort());
        smtp.start();
        return smtp;
    }

    @AfterAll
    static void stopSmtp() {
        SMTP.stop();
    }

    @Test
    void bootsWithoutAnyOtherFeature() {
        assertThat(Arrays.stream(context.getBeanDefinitionNames())
                        .map(context::getType)
                        .filter(type -> type != null)
                        .map(Class::getPackageName)
                        .filter(name -> name.startsWith("com.kvportal."))
                        .map(name -> name.substring("com.kvportal.".length()).split("\\.")[0])
                        .distinct())
                .as("the modules whose beans this context holds")
                .containsOnly("mail", "common");
    }

    @Test
    void sendsAMessageOnceItsTransactionCommits() {
        String to = "module-" + UUID.randomUUID() + "@example.com";
        String subject = "You were removed from Acme on kv-portal " + to;
        transactions.executeWithoutResult(status ->
                mailer.send(new Mail(to, subject, "member-removed", Map.of("email", to, "organization", "Acme"))));

        await().atMost(Duration.ofSeconds(10)).until(() -> received(subject) != null);
        assertThat(SMTP.getReceivedMessagesForDomain("example.com"))
                .filteredOn(message -> subjectOf(message).equals(subject))
                .hasSize(1);
    }

    @Test
    void queuesNothingForATransactionThatRollsBack() {
        String to = "rolled-" + UUID.randomUUID() + "@example.com";
        String subject = "Rolled back " + to;
        transactions.executeWithoutResult(status -> {
            mailer.send(new Mail(to, subject, "member-removed", Map.of("email", to, "organization", "Acme")));
            status.setRollbackOnly();
        });

        assertThat(jdbc.sql("select count(*) from mail_outbox where recipient = ?")
                        .param(to)
                        .query(Long.class)
                        .single())
                .isZero();
    }

    private static MimeMessage received(String subject) {
        return Arrays.stream(SMTP.getReceivedMessages())
                .filter(message -> subjectOf(message).equals(subject))
                .findFirst()
                .orElse(null);
    }

    private static String subjectOf(MimeMessage message) {
        try {
            return message.getSubject();
        } catch (jakarta.mail.MessagingException e) {
            throw new IllegalStateException(e);
        }
    }
}
