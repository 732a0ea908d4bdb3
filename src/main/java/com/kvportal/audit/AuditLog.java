package com.kvportal.audit;

import com.kvportal.account.AccountEvent;
import com.kvportal.account.Accounts;
import com.kvportal.apikey.ApiKeys;
import com.kvportal.audit.AuditEvent.Party;
import com.kvportal.common.web.PageCursor;
import com.kvportal.security.Caller;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import lombok.AccessLevel;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Service;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * Writes and reads the audit log. A line is written in the caller's transaction (the listeners run inside the
 * change's transaction), with the client address and user agent of the current request, if there is one.
 */
@Service
@RequiredArgsConstructor(access = AccessLevel.PACKAGE)
public class AuditLog {

    private static final int MAX_USER_AGENT_LENGTH = 500;

    /** Who acts when a secret scanner reports a leaked key. */
    static final Party SECRET_SCANNING = new Party("system", "secret_scanning", "GitHub secret scanning");

    static final Party PROVIDER = new Party("provider", "payment_provider", "payment provider");

    static final Party SYSTEM = new Party("system", null, "kv-portal");

    /** Someone not signed in, e.g. who asked for a password reset link. */
    static final Party ANONYMOUS = new Party("system", "anonymous", "not signed in");

    private final StoredAuditEvents events;
    private final Accounts accounts;
    private final ApiKeys apiKeys;
    private final Clock clock;

    @Schema(name = "AuditEventPage")
    record Page(
            List<AuditEvent> events,
            @Schema(nullable = true, description = "The cursor of the next page; null on the last page.") @Nullable
                    String nextCursor) {}

    /** Records a line in the organization's log; a customer's own event while in no organization is recorded nowhere. */
    void record(
            @Nullable UUID organizationId,
            String action,
            Party actor,
            @Nullable Party target,
            @Nullable UUID projectId,
            Map<String, Object> details) {
        if (organizationId == null) {
            return;
        }
        Optional<HttpServletRequest> request = currentRequest();
        events.insert(
                organizationId,
                new AuditEvent(
                        UUID.randomUUID(),
                        // microseconds, as PostgreSQL keeps them: a cursor names exactly the row it was made from
                        clock.instant().truncatedTo(ChronoUnit.MICROS),
                        action,
                        actor,
                        target,
                        projectId,
                        request.map(HttpServletRequest::getRemoteAddr).orElse(null),
                        request.map(r -> r.getHeader("User-Agent"))
                                .map(AuditLog::shortened)
                                .orElse(null),
                        details));
    }

    /** Records a line whose actor is the current request's caller, or the service itself outside of one. */
    void byCaller(@Nullable UUID organizationId, String action, Party target, Map<String, Object> details) {
        record(organizationId, action, actorOr(SYSTEM), target, null, details);
    }

    /** Records what a customer did to their own account or membership: they are both the actor and the target. */
    void bySelf(
            @Nullable UUID organizationId,
            String action,
            Party customer,
            @Nullable UUID projectId,
            Map<String, Object> details) {
        record(organizationId, action, customer, customer, projectId, details);
    }

    /** Records what a customer did to their own account or membership, as the event names them. */
    void bySelf(AccountEvent.OfCustomer e, String action, @Nullable UUID projectId, Map<String, Object> details) {
        bySelf(e.organizationId(), action, Party.customer(e.customerId(), e.email()), projectId, details);
    }

    /** Records what the current request's caller did to a customer's membership, as the event names them. */
    void byCaller(AccountEvent.OfCustomer e, String action, Map<String, Object> details) {
        byCaller(e.organizationId(), action, Party.customer(e.customerId(), e.email()), details);
    }

    /**
     * The details of a line, in the order given: a key, then its value (which may be null), and so on. A line's
     * details read in the order they were written, which {@link Map#of} would not keep.
     */
    static Map<String, Object> details(@Nullable Object... keysAndValues) {
        Map<String, Object> details = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            details.put((String) Objects.requireNonNull(keysAndValues[i]), keysAndValues[i + 1]);
        }
        return details;
    }

    /** The organization's events, newest first, {@code limit} at a time after the cursor's position. */
    Page page(Caller caller, @Nullable String limit, @Nullable String cursor) {
        int size = PageCursor.limit(limit);
        PageCursor after = cursor == null ? null : PageCursor.decode(cursor);
        List<AuditEvent> found = events.page(caller.organizationId(), after, size + 1);
        if (found.size() <= size) {
            return new Page(found, null);
        }
        List<AuditEvent> page = found.subList(0, size);
        return new Page(
                List.copyOf(page),
                new PageCursor(
                                page.get(size - 1).occurredAt(),
                                page.get(size - 1).id())
                        .encode());
    }

    /** The caller of the current request (a key or a customer), or {@code fallback} outside of one. */
    Party actorOr(Party fallback) {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (authentication == null || !(authentication.getPrincipal() instanceof Caller caller)) {
            return fallback;
        }
        UUID keyId = caller.apiKeyId();
        if (keyId != null) {
            return new Party("api_key", keyId.toString(), apiKeys.nameOf(keyId).orElse(null));
        }
        return customer(caller.customerId());
    }

    Party customer(UUID customerId) {
        return Party.customer(customerId, accounts.emailOf(customerId).orElse(null));
    }

    Instant now() {
        return clock.instant();
    }

    private static String shortened(String userAgent) {
        return userAgent.length() <= MAX_USER_AGENT_LENGTH ? userAgent : userAgent.substring(0, MAX_USER_AGENT_LENGTH);
    }

    private static Optional<HttpServletRequest> currentRequest() {
        return RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes attributes
                ? Optional.of(attributes.getRequest())
                : Optional.empty();
    }
}
