package com.kvportal.audit;

import com.kvportal.common.web.FieldErrors;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.UUID;

/**
 * A position in an organization's audit log: the (occurred_at, id) of the last event of a page. The next page
 * holds the events strictly older than it, so events written while a client pages (all newer than its position)
 * can neither be skipped nor shown twice. Opaque to clients: base64url of {@code <epoch micros>:<id>}.
 */
record AuditCursor(Instant occurredAt, UUID id) {

    static AuditCursor after(AuditEvent event) {
        return new AuditCursor(event.occurredAt(), event.id());
    }

    String encode() {
        long micros = Math.addExact(
                Math.multiplyExact(occurredAt.getEpochSecond(), 1_000_000L), occurredAt.getNano() / 1_000);
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString((micros + ":" + id).getBytes(StandardCharsets.US_ASCII));
    }

    /** @throws com.kvportal.common.web.ProblemException 400 {@code validation_failed} for anything we did not issue */
    static AuditCursor decode(String cursor) {
        try {
            String plain = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.US_ASCII);
            int colon = plain.indexOf(':');
            long micros = Long.parseLong(plain.substring(0, colon));
            UUID id = UUID.fromString(plain.substring(colon + 1));
            if (!(micros + ":" + id).equals(plain)) {
                throw new IllegalArgumentException("not canonical");
            }
            return new AuditCursor(
                    Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000),
                    id);
        } catch (RuntimeException e) {
            new FieldErrors().add("cursor", "is not a cursor of this list").throwIfAny();
            throw new IllegalStateException("unreachable", e);
        }
    }
}
