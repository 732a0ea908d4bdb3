package com.kvportal.audit;

import static com.kvportal.audit.AuditLog.details;

import com.kvportal.account.AccountEvent;
import com.kvportal.apikey.ApiKeyEvent;
import com.kvportal.audit.AuditEvent.Party;
import java.util.Map;
import lombok.RequiredArgsConstructor;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Turns the account and key events into audit lines. Plain synchronous listeners: each runs inside the transaction
 * that published the event, so a change and its line commit together, and a failed change leaves no line.
 */
@Component
@RequiredArgsConstructor
class AuditTrail {

    private final AuditLog audit;

    @EventListener
    void signedUp(AccountEvent.SignedUp e) {
        audit.bySelf(e, "customer.signed_up", e.projectId(), Map.of());
    }

    @EventListener
    void loggedIn(AccountEvent.LoggedIn e) {
        audit.bySelf(e, "customer.logged_in", e.projectId(), Map.of());
    }

    @EventListener
    void loginFailed(AccountEvent.LoginFailed e) {
        audit.bySelf(e, "customer.login_failed", null, Map.of("reason", e.reason()));
    }

    @EventListener
    void loggedOut(AccountEvent.LoggedOut e) {
        Party customer = audit.customer(e.customerId());
        audit.record(
                e.organizationId(), "customer.logged_out", audit.actorOr(customer), customer, e.projectId(), Map.of());
    }

    @EventListener
    void projectCreated(AccountEvent.ProjectCreated e) {
        audit.record(
                e.organizationId(),
                "project.created",
                audit.actorOr(AuditLog.SYSTEM),
                Party.of("project", e.projectId(), e.name()),
                e.projectId(),
                Map.of());
    }

    @EventListener
    void keyCreated(ApiKeyEvent.Created e) {
        Map<String, Object> details = details("permissions", e.permissions(), "expires_at", e.expiresAt());
        key(e, audit.actorOr(AuditLog.SYSTEM), details);
    }

    @EventListener
    void keyUpdated(ApiKeyEvent.Updated e) {
        key(e, audit.actorOr(AuditLog.SYSTEM), Map.of("changes", e.changes()));
    }

    @EventListener
    void keyRolled(ApiKeyEvent.Rolled e) {
        Map<String, Object> details =
                details("previous_key_id", e.previousKeyId().toString());
        details.put("previous_expires_at", e.previousExpiresAt());
        details.put("grace_seconds", e.graceSeconds());
        key(e, audit.actorOr(AuditLog.SYSTEM), details);
    }

    /** A key switched off, on again, or revoked: the line's action says which, and it holds nothing more. */
    @EventListener({ApiKeyEvent.Disabled.class, ApiKeyEvent.Enabled.class, ApiKeyEvent.Revoked.class})
    void keySwitched(ApiKeyEvent e) {
        key(e, audit.actorOr(AuditLog.SYSTEM), Map.of());
    }

    @EventListener
    void keyLeaked(ApiKeyEvent.Leaked e) {
        Map<String, Object> details = details("token_type", e.tokenType(), "url", e.url(), "source", e.source());
        key(e, AuditLog.SECRET_SCANNING, details);
    }

    /** {@code api_key.credits_low} or {@code api_key.credits_exhausted}. */
    @EventListener
    void keyCreditsNoticed(ApiKeyEvent.CreditsNoticed e) {
        key(e, AuditLog.SYSTEM, Map.of("remaining", e.remaining()));
    }

    /** A line whose action is the event's type ({@link ApiKeyEvent#type()}), on the key. */
    private void key(ApiKeyEvent e, Party actor, Map<String, Object> details) {
        audit.record(
                e.organizationId(),
                e.type(),
                actor,
                Party.of("api_key", e.keyId(), e.keyName()),
                e.projectId(),
                details);
    }
}
