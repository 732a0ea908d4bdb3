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
        Party customer = customer(e.customerId(), e.email());
        audit.record(e.organizationId(), "customer.email_verified", customer, customer, null, Map.of());
    }

    @EventListener
    void passwordResetRequested(AccountEvent.PasswordResetRequested e) {
        Party customer = customer(e.customerId(), e.email());
        // whoever asked is not signed in: the address reached is the target, the actor is unknown
        audit.record(
                e.organizationId(),
                "customer.password_reset_requested",
                audit.actorOr(AuditLog.ANONYMOUS),
                customer,
                null,
                Map.of());
    }

    @EventListener
    void passwordReset(AccountEvent.PasswordReset e) {
        Party customer = customer(e.customerId(), e.email());
        audit.record(
                e.organizationId(),
                "customer.password_reset",
                customer,
                customer,
                null,
                Map.of("sessions_ended", e.sessionsEnded()));
    }

    @EventListener
    void passwordChanged(AccountEvent.PasswordChanged e) {
        Party customer = customer(e.customerId(), e.email());
        audit.record(
                e.organizationId(),
                "customer.password_changed",
                customer,
                customer,
                null,
                Map.of("sessions_ended", e.sessionsEnded()));
    }

    @EventListener
    void emailChanged(AccountEvent.EmailChanged e) {
        Party customer = customer(e.customerId(), e.email());
        audit.record(
                e.organizationId(),
                "customer.email_changed",
                customer,
                customer,
                null,
                Map.of("previous_email", e.previousEmail(), "email", e.email()));
    }

    @EventListener
    void sessionEnded(AccountEvent.SessionEnded e) {
        Party customer = customer(e.customerId(), e.email());
        audit.record(
                e.organizationId(),
                "customer.session_ended",
                customer,
                customer,
                null,
                Map.of("sessions", e.how(), "sessions_ended", e.sessionsEnded()));
    }

    @EventListener
    void totpEnabled(AccountEvent.TotpEnabled e) {
        Party customer = customer(e.customerId(), e.email());
        audit.record(e.organizationId(), "customer.totp_enabled", customer, customer, null, Map.of());
    }

    @EventListener
    void totpDisabled(AccountEvent.TotpDisabled e) {
        Party customer = customer(e.customerId(), e.email());
        audit.record(e.organizationId(), "customer.totp_disabled", customer, customer, null, Map.of());
    }

    @EventListener
    void recoveryCodeUsed(AccountEvent.RecoveryCodeUsed e) {
        Party customer = customer(e.customerId(), e.email());
        audit.record(
                e.organizationId(),
                "customer.recovery_code_used",
                customer,
                customer,
                null,
                Map.of("recovery_codes_left", e.remaining()));
    }

    private static Party customer(UUID id, String email) {
        return new Party("customer", id.toString(), email);
    }
}
