package com.kvportal.audit;

import com.kvportal.account.AccountEvent;
import com.kvportal.audit.AuditEvent.Party;
import java.util.Map;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Audit lines for the account's security: verification, reset, password and address changes, ended sessions.
 * Synchronous, in the change's transaction; never a token, a code or a password.
 */
@Component
@RequiredArgsConstructor
class AccountSecurityAuditTrail {

    private final AuditLog audit;

    @EventListener
    void emailVerified(AccountEvent.EmailVerified e) {
        bySelf(e.organizationId(), "customer.email_verified", e.customerId(), e.email(), Map.of());
    }

    @EventListener
    void passwordResetRequested(AccountEvent.PasswordResetRequested e) {
        // whoever asked is not signed in: the address reached is the target, the actor is unknown
        audit.record(
                e.organizationId(),
                "customer.password_reset_requested",
                audit.actorOr(AuditLog.ANONYMOUS),
                Party.customer(e.customerId(), e.email()),
                null,
                Map.of());
    }

    @EventListener
    void passwordReset(AccountEvent.PasswordReset e) {
        Map<String, Object> details = sessionsEnded(e.sessionsEnded());
        bySelf(e.organizationId(), "customer.password_reset", e.customerId(), e.email(), details);
    }

    @EventListener
    void passwordChanged(AccountEvent.PasswordChanged e) {
        Map<String, Object> details = sessionsEnded(e.sessionsEnded());
        bySelf(e.organizationId(), "customer.password_changed", e.customerId(), e.email(), details);
    }

    @EventListener
    void emailChanged(AccountEvent.EmailChanged e) {
        Map<String, Object> details = Map.of("previous_email", e.previousEmail(), "email", e.email());
        bySelf(e.organizationId(), "customer.email_changed", e.customerId(), e.email(), details);
    }

    @EventListener
    void sessionEnded(AccountEvent.SessionEnded e) {
        Map<String, Object> details = Map.of("sessions", e.how(), "sessions_ended", e.sessionsEnded());
        bySelf(e.organizationId(), "customer.session_ended", e.customerId(), e.email(), details);
    }

    @EventListener
    void totpEnabled(AccountEvent.TotpEnabled e) {
        bySelf(e.organizationId(), "customer.totp_enabled", e.customerId(), e.email(), Map.of());
    }

    @EventListener
    void totpDisabled(AccountEvent.TotpDisabled e) {
        bySelf(e.organizationId(), "customer.totp_disabled", e.customerId(), e.email(), Map.of());
    }

    @EventListener
    void recoveryCodeUsed(AccountEvent.RecoveryCodeUsed e) {
        Map<String, Object> details = Map.of("recovery_codes_left", e.remaining());
        bySelf(e.organizationId(), "customer.recovery_code_used", e.customerId(), e.email(), details);
    }

    private void bySelf(
            UUID organizationId, String action, UUID customerId, String email, Map<String, Object> details) {
        audit.bySelf(organizationId, action, Party.customer(customerId, email), null, details);
    }

    private static Map<String, Object> sessionsEnded(int count) {
        return Map.of("sessions_ended", count);
    }
}
