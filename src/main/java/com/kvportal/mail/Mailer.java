package com.kvportal.mail;

import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Sends mail through the outbox: {@link #send} renders the message and writes it in the caller's transaction, so it
 * goes out if and only if the change that causes it commits. It is handed to SMTP after the commit, never while the
 * caller waits; a failed attempt is retried with backoff.
 */
@Service
@RequiredArgsConstructor
public class Mailer {

    private final Outbox outbox;
    private final MailTemplates templates;
    private final OutboxDelivery delivery;

    /** Queues the message in the current transaction (there must be one) and sends it once that commits. */
    @Transactional(propagation = Propagation.MANDATORY)
    public void send(Mail mail) {
        UUID id = UUID.randomUUID();
        outbox.insert(
                id,
                "<" + id + "@" + delivery.messageIdDomain() + ">",
                mail.to(),
                mail.subject(),
                templates.render(mail));
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                delivery.soon();
            }
        });
    }

    /** The domain of an address, e.g. of {@code MAIL_FROM}, for Message-IDs. */
    static String domainOf(String address) {
        try {
            String email = new InternetAddress(address, true).getAddress();
            int at = email.lastIndexOf('@');
            return at < 0 || at == email.length() - 1 ? "kv-portal" : email.substring(at + 1);
        } catch (AddressException e) {
            return "kv-portal";
        }
    }
}
