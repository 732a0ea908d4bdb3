package com.kvportal.audit;

import com.kvportal.account.AccountEvent;
import com.kvportal.audit.AuditEvent.Party;
import java.util.Map;
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
        audit.bySelf(e, "customer.email_verified", null, Map.of());
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
        audit.bySelf(e, "customer.password_reset", null, Map.of("sessions_ended", e.sessionsEnded()));
    }

    @EventListener
    void passwordChanged(AccountEvent.PasswordChanged e) {
        audit.bySelf(e, "customer.password_changed", null, Map.of("sessions_ended", e.sessionsEnded()));
    }

    @EventListener
    void emailChanged(AccountEvent.EmailChanged e) {
        Map<String, Object> details = Map.of("previous_email", e.previousEmail(), "email", e.email());
        audit.bySelf(e, "customer.email_changed", null, details);
    }

    @EventListener
    void sessionEnded(AccountEvent.SessionEnded e) {
        Map<String, Object> details = Map.of("sessions", e.how(), "sessions_ended", e.sessionsEnded());
        audit.bySelf(e, "customer.session_ended", null, details);
    }

    @EventListener
    void totpEnabled(AccountEvent.TotpEnabled e) {
        audit.bySelf(e, "customer.totp_enabled", null, Map.of());
    }

    @EventListener
    void totpDisabled(AccountEvent.TotpDisabled e) {
        audit.bySelf(e, "customer.totp_disabled", null, Map.of());
    }

    @EventListener
    void recoveryCodeUsed(AccountEvent.RecoveryCodeUsed e) {
        audit.bySelf(e, "customer.recovery_code_used", null, Map.of("recovery_codes_left", e.remaining()));
    }
}
