package com.kvportal.mail.sandbox;

import com.kvportal.common.validation.Addresses;
import jakarta.mail.BodyPart;
import jakarta.mail.MessagingException;
import jakarta.mail.Multipart;
import jakarta.mail.Part;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The SQL of the mail sandbox's messages: what its SMTP server received, shared by every instance. */
@Repository
@RequiredArgsConstructor
class SandboxMailbox {

    static final int MAX_LISTED = 200;

    private final JdbcClient jdbc;

    /** A message as the sandbox shows it; {@code sentAt} is when the SMTP server received it. */
    record Message(UUID id, String to, String subject, String text, String html, Instant sentAt) {}

    /** Keeps a received message for one recipient; a message delivered again (same Message-ID) is kept once. */
    void store(MimeMessage message, String recipient) throws MessagingException {
        Parts parts = new Parts();
        try {
            parts.collect(message);
        } catch (IOException e) {
            throw new MessagingException("unreadable message", e);
        }
        String messageId = message.getMessageID();
        jdbc.sql(
                        """
                        insert into mail_sandbox_messages (id, message_id, recipient, subject, text_body, html_body)
                        values (?, ?, ?, ?, ?, ?)
                        on conflict (message_id, recipient) do nothing""")
                .params(
                        UUID.randomUUID(),
                        messageId == null ? "<" + UUID.randomUUID() + "@sandbox>" : messageId,
                        recipient,
                        message.getSubject() == null ? "" : message.getSubject(),
                        parts.text,
                        parts.html)
                .update();
    }

    /**
     * The newest messages first, all or those to one address (case-insensitively; an internationalized domain
     * either as typed or in the ASCII form it was sent to).
     */
    List<Message> newest(@Nullable String to) {
        return jdbc.sql(
                        """
                        select id, recipient as "to", subject, text_body as text, html_body as html,
                               received_at as sent_at
                        from mail_sandbox_messages
                        where (cast(:to as text) is null or lower(recipient) = lower(cast(:to as text)))
                        order by received_at desc, id
                        limit :limit""")
                .param("to", to == null ? null : Addresses.forSending(to))
                .param("limit", MAX_LISTED)
                .query(Message.class)
                .list();
    }

    /** The text and HTML parts of a message, wherever they sit in its multipart tree. */
    private static final class Parts {
        String text = "";
        String html = "";

        void collect(Part part) throws MessagingException, IOException {
            if (part.isMimeType("multipart/*") && part.getContent() instanceof Multipart multipart) {
                for (int i = 0; i < multipart.getCount(); i++) {
                    BodyPart child = multipart.getBodyPart(i);
                    collect(child);
                }
            } else if (part.isMimeType("text/plain") && text.isEmpty()) {
                text = String.valueOf(part.getContent());
            } else if (part.isMimeType("text/html") && html.isEmpty()) {
                html = String.valueOf(part.getContent());
            }
        }
    }
}
