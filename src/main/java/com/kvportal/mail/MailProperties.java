package com.kvportal.mail;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Mail ({@code kvportal.mail.*}; {@code application.yml} maps {@code SMTP_URL} and {@code MAIL_FROM} here).
 *
 * @param smtpUrl {@code smtp://user:pass@host:587?starttls=required} or {@code smtps://user:pass@host:465}; empty:
 *     the mail sandbox
 * @param from the sender of every message
 * @param pollInterval how often each instance looks for due messages (besides the prompt send after each commit)
 * @param retryInitial the wait after the first failed attempt; it doubles with each further failure
 * @param retryMax the longest wait between two attempts
 * @param retryFor how long a message is retried before it is given up (logged, kept in the outbox)
 * @param smtpTimeout connect and read timeout of one SMTP exchange
 * @param sandboxRetention how long the mail sandbox keeps a message it received
 * @param outboxRetention how long the outbox keeps the headers of a message after it was sent or given up
 * @param purgeInterval how often each instance deletes what is older than those retentions
 * @param purgeInitialDelay when the first purge runs after start-up
 * @param deliver false: this instance queues messages but sends none (e.g. while the SMTP server moves; another
 *     instance, or this one restarted, sends them)
 */
@ConfigurationProperties("kvportal.mail")
@Validated
public record MailProperties(
        @DefaultValue("") String smtpUrl,
        @DefaultValue("kv-portal <no-reply@localhost>") @NotBlank String from,
        @DefaultValue("2s") @NotNull Duration pollInterval,
        @DefaultValue("5s") @NotNull Duration retryInitial,
        @DefaultValue("15m") @NotNull Duration retryMax,
        @DefaultValue("48h") @NotNull Duration retryFor,
        @DefaultValue("10s") @NotNull Duration smtpTimeout,
        @DefaultValue("7d") @NotNull Duration sandboxRetention,
        @DefaultValue("30d") @NotNull Duration outboxRetention,
        @DefaultValue("1h") @NotNull Duration purgeInterval,
        @DefaultValue("1m") @NotNull Duration purgeInitialDelay,
        @DefaultValue("true") boolean deliver) {

    public static final String SMTP_URL = "kvportal.mail.smtp-url";

    boolean sandbox() {
        return smtpUrl.isBlank();
    }
}
