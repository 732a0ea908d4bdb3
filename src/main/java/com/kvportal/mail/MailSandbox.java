package com.kvportal.mail;

import com.icegreen.greenmail.store.FolderException;
import com.icegreen.greenmail.user.GreenMailUser;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import java.time.Duration;
import lombok.extern.slf4j.Slf4j;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.mail.javamail.JavaMailSenderImpl;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * The mail sandbox's SMTP server: GreenMail on 127.0.0.1 at a free port, started with the service while {@code
 * SMTP_URL} is unset. The outbox sends to it over SMTP like to any other server; each message it accepts is written
 * to the shared {@link SandboxMailbox} before the SMTP exchange completes, so a message the outbox counts as sent is
 * one that every instance's sandbox shows.
 */
@Slf4j
@Component
@MailSandboxMode
class MailSandbox implements DisposableBean {

    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(30);

    private final GreenMail server;
    private final GreenMailUser sink;

    MailSandbox(SandboxMailbox mailbox) {
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
    JavaMailSenderImpl sender(Duration timeout) {
        return new SmtpUrl(false, "127.0.0.1", port(), null, null, SmtpUrl.Starttls.OFF, null).sender(timeout);
    }

    /** The messages are in the database: GreenMail's own copies are dropped. */
    @Scheduled(fixedDelayString = "PT1M")
    void forgetDelivered() throws FolderException {
        server.purgeEmailFromAllMailboxes();
    }

    @Override
    public void destroy() {
        server.stop();
    }
}
