package com.kvportal.mail;

import com.kvportal.common.scheduling.PeriodicJob;
import com.kvportal.common.scheduling.ScheduledRuns;
import com.kvportal.common.scheduling.SoonRunner;
import com.kvportal.common.validation.Addresses;
import com.kvportal.mail.sandbox.MailSandbox;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.util.List;
import lombok.extern.slf4j.Slf4j;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.mail.MailException;
import org.springframework.mail.MailSendException;
import org.springframework.mail.javamail.JavaMailSenderImpl;
import org.springframework.mail.javamail.MimeMessageHelper;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Hands the outbox's messages to SMTP on a thread of its own: at once after each commit that queued one, and every
 * {@code poll-interval} for what is due (messages of other instances, retries, messages left by a crash). A batch is
 * claimed with {@code FOR UPDATE SKIP LOCKED}, so each message is sent by one instance at a time; a failure waits
 * {@code retry-initial}, doubling up to {@code retry-max}, until {@code retry-for} has passed.
 */
@Slf4j
@Component
class OutboxDelivery implements PeriodicJob, DisposableBean {

    private static final int BATCH = 20;

    private final Outbox outbox;
    private final TransactionTemplate transactions;
    private final MailProperties settings;
    private final JavaMailSenderImpl sender;
    private final InternetAddress from;
    private final String messageIdDomain;
    private final SoonRunner worker = new SoonRunner("mail-outbox", this::deliverDue);

    OutboxDelivery(
            Outbox outbox,
            TransactionTemplate transactions,
            MailProperties settings,
            ObjectProvider<MailSandbox> sandbox) {
        this.outbox = outbox;
        this.transactions = transactions;
        this.settings = settings;
        if (settings.sandbox()) {
            this.sender = sandbox.getObject().sender(settings.smtpTimeout());
        } else {
            SmtpUrl url = SmtpUrl.parse(settings.smtpUrl());
            log.info("Mail goes to {}", url);
            url.clearTextWarning().ifPresent(log::warn);
            this.sender = url.sender(settings.smtpTimeout());
        }
        try {
            this.from = new InternetAddress(settings.from(), true);
        } catch (jakarta.mail.internet.AddressException e) {
            throw new IllegalArgumentException("MAIL_FROM is not an address: " + e.getMessage(), e);
        }
        this.messageIdDomain = Mailer.domainOf(settings.from());
    }

    String messageIdDomain() {
        return messageIdDomain;
    }

    /** The poll, every {@code kvportal.mail.poll-interval}. */
    @Override
    public Schedule schedule() {
        return Schedule.every("mail-poll", settings.pollInterval(), this::soon);
    }

    /**
     * Delivers what is due soon, on the outbox's thread: after each commit that queued a message, and every poll;
     * calls while a run is queued add nothing.
     */
    void soon() {
        if (settings.deliver()) {
            worker.soon();
        }
    }

    /** Sends batch after batch until nothing is due or the server fails. */
    void deliverDue() {
        ScheduledRuns.orNextRun(
                log, "Mail outbox: the delivery run", () -> ScheduledRuns.inBatches(transactions, this::deliverBatch));
    }

    /**
     * Sends the due batch over one SMTP connection. A message the server refused waits out its backoff; when the
     * server could not be reached at all, every message of the batch does, and the run ends.
     *
     * @return whether to go on with another batch
     */
    private boolean deliverBatch() {
        List<Outbox.Pending> due = outbox.claimDue(BATCH, settings.retryFor());
        List<Outbox.Pending> sending = new java.util.ArrayList<>();
        List<MimeMessage> messages = new java.util.ArrayList<>();
        for (Outbox.Pending message : due) {
            if (message.expired()) {
                log.error(
                        "Mail outbox: message {} to {} given up after {} attempts over {}",
                        message.messageId(),
                        message.recipient(),
                        message.attempts(),
                        settings.retryFor());
                outbox.abandoned(message.id());
                continue;
            }
            try {
                messages.add(mime(message));
                sending.add(message);
            } catch (MessagingException e) {
                failed(message, e);
            }
        }
        if (messages.isEmpty()) {
            return false;
        }
        java.util.Map<Object, Exception> refused = java.util.Map.of();
        try {
            sender.send(messages.toArray(MimeMessage[]::new));
        } catch (MailSendException e) {
            refused = e.getFailedMessages();
        } catch (MailException e) {
            // e.g. authentication: nothing went out
            refused = new java.util.IdentityHashMap<>();
            for (MimeMessage message : messages) {
                refused.put(message, e);
            }
        }
        boolean anySent = false;
        boolean anyRetried = false;
        for (int i = 0; i < sending.size(); i++) {
            Exception failure = refused.get(messages.get(i));
            if (failure == null) {
                outbox.sent(sending.get(i).id());
                anySent = true;
                anyRetried |= sending.get(i).attempts() > 0;
            } else {
                failed(sending.get(i), failure);
            }
        }
        if (anyRetried) {
            // a message that failed before passes now: what waits out a backoff is sent without waiting
            outbox.retryWaitingNow();
        }
        return anySent && refused.isEmpty() && due.size() == BATCH;
    }

    private void failed(Outbox.Pending message, Exception e) {
        Duration wait = backoff(message.attempts());
        String why = reason(e);
        log.warn(
                "Mail outbox: sending {} failed (attempt {}), next attempt in {} ms: {}",
                message.messageId(),
                message.attempts() + 1,
                wait.toMillis(),
                why);
        outbox.failed(message.id(), wait, why);
    }

    private MimeMessage mime(Outbox.Pending message) throws MessagingException {
        MimeMessage mime = sender.createMimeMessage();
        MimeMessageHelper helper = new MimeMessageHelper(mime, MimeMessageHelper.MULTIPART_MODE_MIXED_RELATED, "UTF-8");
        helper.setFrom(from);
        // an internationalized domain goes out in its ASCII (punycode) form, which every SMTP server takes
        helper.setTo(Addresses.forSending(message.recipient()));
        helper.setSubject(message.subject());
        helper.setText(message.textBody(), message.htmlBody());
        // the same Message-ID at every attempt: a receiver can tell a repeated delivery
        mime.setHeader("Message-ID", message.messageId());
        return mime;
    }

    /** The innermost cause, on one line: e.g. "ConnectException: Connection refused". */
    private static String reason(Exception e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return (cause.getClass().getSimpleName() + ": " + cause.getMessage()).replaceAll("\\s+", " ");
    }

    /** retry-initial, doubling with each failure, at most retry-max. */
    Duration backoff(int failuresBefore) {
        long initial = settings.retryInitial().toMillis();
        long max = settings.retryMax().toMillis();
        long wait = initial << Math.min(failuresBefore, 30);
        return Duration.ofMillis(wait <= 0 || wait > max ? max : wait);
    }

    @Override
    public void destroy() throws InterruptedException {
        worker.shutdown(settings.smtpTimeout().plusSeconds(5));
    }
}
