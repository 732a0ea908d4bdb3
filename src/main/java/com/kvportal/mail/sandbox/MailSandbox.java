package com.kvportal.mail.sandbox;

import com.icegreen.greenmail.store.FolderException;
import com.icegreen.greenmail.user.GreenMailUser;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.kvportal.common.AppBaseUrl;
import com.kvportal.common.PaymentProperties;
import com.kvportal.common.scheduling.PeriodicJob;
import com.kvportal.mail.SmtpUrl;
import java.time.Duration;
import lombok.extern.slf4j.Slf4j;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.mail.javamail.JavaMailSenderImpl;
import org.springframework.stereotype.Component;

/**
 * The mail sandbox's SMTP server: GreenMail on 127.0.0.1 at a free port, started with the service while {@code
 * SMTP_URL} is unset. The outbox sends to it over SMTP like to any other server; each message it accepts is written
 * to the shared {@link SandboxMailbox} before the SMTP exchange completes, so a message the outbox counts as sent is
 * one that every instance's sandbox shows. It runs where the payment sandbox may: on a loopback base URL, or
 * anywhere with {@code SANDBOX=on}; elsewhere the service refuses to start without {@code SMTP_URL}.
 */
@Slf4j
@Component
@MailSandboxMode
public class MailSandbox implements PeriodicJob, DisposableBean {

    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(30);

    private final GreenMail server;
    private final GreenMailUser sink;

    MailSandbox(SandboxMailbox mailbox, AppBaseUrl baseUrl, SandboxSwitch sandbox, PaymentProperties payment) {
        if (!payment.stripeSecretKey().isBlank()) {
            // without Stripe the payment sandbox runs, and its own start-up check applies the same rule
            refuseUnlessLocal(baseUrl.isLoopback(), sandbox.mode(), baseUrl.get());
        }
        ServerSetup setup = new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP).dynamicPort();
        // GreenMail's default of 2 s is short for a busy machine at start-up
        setup.setServerStartupTimeout(STARTUP_TIMEOUT.toMillis());
        server = new GreenMail(setup);
        server.start();
        // GreenMail files every message in a mailbox of its own as well; one sink, emptied now and then
        sink = server.setUser("sandbox@localhost", "sandbox", "sandbox");
        server.getUserManager().setMessageDeliveryHandler((message, recipient) -> {
            mailbox.store(message.getMessage(), recipient.getEmail());
            return sink;
        });
        log.info(
                "Mail sandbox: SMTP_URL is unset, so messages go to an SMTP server inside the service (127.0.0.1:{})"
                        + " and are read at /sandbox/mail",
                port());
    }

    int port() {
        return server.getSmtp().getPort();
    }

    /** A sender to this server. */
    public JavaMailSenderImpl sender(Duration timeout) {
        return new SmtpUrl(false, "127.0.0.1", port(), null, null, SmtpUrl.Starttls.OFF, null).sender(timeout);
    }

    /** Every minute, from start-up. */
    @Override
    public Schedule schedule() {
        return new Schedule("mail-sandbox-cleanup", Duration.ZERO, Duration.ofMinutes(1), this::forgetDelivered);
    }

    /** The messages are in the database: GreenMail's own copies are dropped. */
    void forgetDelivered() {
        try {
            server.purgeEmailFromAllMailboxes();
        } catch (FolderException e) {
            throw new IllegalStateException("GreenMail could not empty its mailboxes", e);
        }
    }

    @Override
    public void destroy() {
        server.stop();
    }

    /** The mail sandbox's rule of where it may run, the payment sandbox's: loopback, or {@code SANDBOX=on}. */
    public static void refuseUnlessLocal(boolean loopback, String sandboxMode, String baseUrl) {
        if (!loopback && !"on".equals(sandboxMode)) {
            throw new IllegalStateException("SMTP_URL is not set, so mail would go to the built-in mail sandbox, but "
                    + "APP_BASE_URL (" + baseUrl + ") is not a loopback address. Set SMTP_URL "
                    + "(smtp://user:pass@host:587?starttls=required) to send real mail, or SANDBOX=on to run the "
                    + "sandboxes there anyway (a demo or test environment).");
        }
    }
}
