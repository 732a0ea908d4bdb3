package com.kvportal.account;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.session.FindByIndexNameSessionRepository;
import org.springframework.session.Session;
import org.springframework.stereotype.Component;

/**
 * A customer's dashboard sessions, in Spring Session's JDBC store (shared by every instance, so a session ended here
 * is gone everywhere at its next request). Each session is indexed by the customer's id as principal name and
 * carries an opaque handle, the only id the API shows: neither the cookie's value nor the session id it encodes.
 */
@Component
@RequiredArgsConstructor
public class CustomerSessions {

    private static final String HANDLE = "kvportal.session.handle";
    private static final String ADDRESS = "kvportal.session.ip";
    private static final String USER_AGENT = "kvportal.session.user_agent";
    private static final int MAX_USER_AGENT_LENGTH = 500;

    private final FindByIndexNameSessionRepository<? extends Session> repository;
    private final JdbcClient jdbc;

    @Schema(name = "AccountSession")
    public record View(
            @Schema(description = "Opaque: neither the cookie's value nor the session id.") UUID id,
            Instant createdAt,
            Instant lastSeenAt,
            @Schema(nullable = true) @Nullable String ip,
            @Schema(nullable = true) @Nullable String userAgent,
            @Schema(description = "The session of this request.") boolean current) {}

    /** Marks the request's new session as the customer's, with where it was started from. */
    void started(HttpServletRequest request, UUID customerId) {
        HttpSession session = request.getSession(false);
        if (session == null) {
            return;
        }
        session.setAttribute(FindByIndexNameSessionRepository.PRINCIPAL_NAME_INDEX_NAME, customerId.toString());
        session.setAttribute(HANDLE, UUID.randomUUID().toString());
        session.setAttribute(ADDRESS, request.getRemoteAddr());
        String userAgent = request.getHeader("User-Agent");
        if (userAgent != null) {
            session.setAttribute(
                    USER_AGENT,
                    userAgent.length() <= MAX_USER_AGENT_LENGTH
                            ? userAgent
                            : userAgent.substring(0, MAX_USER_AGENT_LENGTH));
        }
    }

    /** The customer's sessions, the most recently seen first. */
    public List<View> of(UUID customerId, HttpServletRequest request) {
        String current = currentId(request);
        return sessions(customerId).values().stream()
                .filter(s -> s.getAttribute(HANDLE) != null)
                .map(s -> new View(
                        UUID.fromString(s.getAttribute(HANDLE)),
                        s.getCreationTime(),
                        s.getLastAccessedTime(),
                        s.getAttribute(ADDRESS),
                        s.getAttribute(USER_AGENT),
                        s.getId().equals(current)))
                .sorted(Comparator.comparing(View::lastSeenAt).reversed())
                .toList();
    }

    /** Ends the customer's session with this handle; false when the customer has none such. */
    public boolean end(UUID customerId, UUID handle) {
        Optional<String> sessionId = sessions(customerId).values().stream()
                .filter(s -> handle.toString().equals(s.getAttribute(HANDLE)))
                .map(Session::getId)
                .findFirst();
        sessionId.ifPresent(repository::deleteById);
        return sessionId.isPresent();
    }

    /** Ends every session of the customer, in the caller's transaction; answers how many. */
    public int endAll(UUID customerId) {
        return jdbc.sql("delete from spring_session where principal_name = ?")
                .param(customerId.toString())
                .update();
    }

    /** Ends every session of the customer but the request's own, in the caller's transaction; answers how many. */
    public int endOthers(UUID customerId, HttpServletRequest request) {
        String current = currentId(request);
        return jdbc.sql("delete from spring_session where principal_name = ? and session_id <> ?")
                .params(customerId.toString(), current == null ? "" : current)
                .update();
    }

    public boolean isCurrent(UUID handle, HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        return session != null && handle.toString().equals(session.getAttribute(HANDLE));
    }

    private Map<String, ? extends Session> sessions(UUID customerId) {
        return repository.findByPrincipalName(customerId.toString());
    }

    private static @Nullable String currentId(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        return session == null ? null : session.getId();
    }
}
