package com.kvportal.account.credentials;

import com.kvportal.account.AccountProblem;
import com.kvportal.account.CustomerSessions;
import com.kvportal.account.twostep.Code;
import com.kvportal.account.twostep.Disable;
import com.kvportal.account.twostep.RecoveryCodes;
import com.kvportal.account.twostep.Setup;
import com.kvportal.account.twostep.Start;
import com.kvportal.account.twostep.TwoStepLogin;
import com.kvportal.common.limits.ClientAddress;
import com.kvportal.common.web.CommonProblem;
import com.kvportal.security.ApiContract;
import com.kvportal.security.Caller;
import com.kvportal.security.Credential;
import com.kvportal.security.Permission;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** Email verification, password reset, password and email changes, and the customer's sessions. */
@RestController
@Tag(
        name = "Account security",
        description = "Verify the email address, reset a forgotten password, change password and address, and see"
                + " and end the sessions. Links in mail carry single-use, expiring tokens.")
@RequiredArgsConstructor
class AccountSecurityController {

    private final AccountSecurity security;
    private final CustomerSessions sessions;
    private final TwoStepLogin twoStep;

    /** Longer than the work of a reset request for a known address takes, even on a busy machine. */
    static final Duration RESET_ANSWER_FLOOR = Duration.ofMillis(250);

    record Accepted(@Schema(description = "What happens next.") String message) {}

    record SessionList(List<CustomerSessions.View> sessions) {}

    @ApiContract(credentials = {})
    @AccountProblem.Codes(AccountProblem.TOKEN_INVALID)
    @PostMapping(path = "/api/v1/auth/verify-email", consumes = MediaType.APPLICATION_JSON_VALUE)
    EmailVerified verifyEmail(@Valid @RequestBody TokenBody body) {
        return security.verifyEmail(body);
    }

    @ApiContract(success = HttpStatus.ACCEPTED, credentials = Credential.PORTAL, permission = Permission.SIGNED_IN)
    @AccountProblem.Codes({AccountProblem.EMAIL_ALREADY_VERIFIED, AccountProblem.SESSION_REQUIRED})
    @CommonProblem.Codes(CommonProblem.TOO_MANY_REQUESTS)
    @PostMapping("/api/v1/account/verification-email")
    Accepted resendVerificationEmail(Caller caller) {
        security.resendVerification(caller);
        return new Accepted("A new verification link is on its way.");
    }

    @ApiContract(
            success = HttpStatus.ACCEPTED,
            credentials = {})
    @CommonProblem.Codes(CommonProblem.TOO_MANY_REQUESTS)
    @PostMapping(path = "/api/v1/auth/password-reset", consumes = MediaType.APPLICATION_JSON_VALUE)
    Accepted requestPasswordReset(@Valid @RequestBody ResetRequest body, HttpServletRequest request) {
        long started = System.nanoTime();
        // a refusal (429) answers at once: the limits come before the address is looked up, so its time tells nothing
        security.requestPasswordReset(body, ClientAddress.of(request));
        // a known address costs a token, a rendered message and an audit line more than an unknown one: an admitted
        // request (at most 5 an hour per client and per address) waits until the same floor, holding no connection
        pause(RESET_ANSWER_FLOOR.minusNanos(System.nanoTime() - started));
        return new Accepted("If the address belongs to an account, a reset link is on its way.");
    }

    @ApiContract(
            success = HttpStatus.NO_CONTENT,
            credentials = {})
    @AccountProblem.Codes(AccountProblem.TOKEN_INVALID)
    @PostMapping(path = "/api/v1/auth/password-reset/confirm", consumes = MediaType.APPLICATION_JSON_VALUE)
    void confirmPasswordReset(@Valid @RequestBody ResetConfirmation body) {
        security.confirmPasswordReset(body);
    }

    @ApiContract(success = HttpStatus.NO_CONTENT, credentials = Credential.PORTAL, permission = Permission.SIGNED_IN)
    @AccountProblem.Reauthenticates
    @PutMapping(path = "/api/v1/account/password", consumes = MediaType.APPLICATION_JSON_VALUE)
    void changePassword(Caller caller, @Valid @RequestBody PasswordChange body, HttpServletRequest request) {
        security.changePassword(caller, body, request);
    }

    @ApiContract(success = HttpStatus.ACCEPTED, credentials = Credential.PORTAL, permission = Permission.SIGNED_IN)
    @AccountProblem.Codes(AccountProblem.EMAIL_TAKEN)
    @AccountProblem.Reauthenticates
    @CommonProblem.Codes(CommonProblem.TOO_MANY_REQUESTS)
    @PutMapping(path = "/api/v1/account/email", consumes = MediaType.APPLICATION_JSON_VALUE)
    Accepted changeEmail(Caller caller, @Valid @RequestBody EmailChange body) {
        security.requestEmailChange(caller, body);
        return new Accepted("A confirmation link is on its way to the new address.");
    }

    @ApiContract(credentials = {})
    @AccountProblem.Codes({AccountProblem.TOKEN_INVALID, AccountProblem.EMAIL_TAKEN})
    @PostMapping(path = "/api/v1/auth/email-change/confirm", consumes = MediaType.APPLICATION_JSON_VALUE)
    EmailConfirmed confirmEmailChange(@Valid @RequestBody TokenBody body) {
        return security.confirmEmailChange(body);
    }

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.SIGNED_IN)
    @AccountProblem.Codes(AccountProblem.SESSION_REQUIRED)
    @GetMapping("/api/v1/account/sessions")
    SessionList listSessions(Caller caller, HttpServletRequest request) {
        AccountSecurity.requireSession(caller);
        return new SessionList(sessions.of(caller.customerId(), request));
    }

    @ApiContract(success = HttpStatus.NO_CONTENT, credentials = Credential.PORTAL, permission = Permission.SIGNED_IN)
    @AccountProblem.Codes({AccountProblem.SESSION_NOT_FOUND, AccountProblem.SESSION_REQUIRED})
    @DeleteMapping("/api/v1/account/sessions/{id}")
    void endSession(Caller caller, @PathVariable UUID id, HttpServletRequest request) {
        security.endSession(caller, id, request);
    }

    @ApiContract(success = HttpStatus.NO_CONTENT, credentials = Credential.PORTAL, permission = Permission.SIGNED_IN)
    @AccountProblem.Codes(AccountProblem.SESSION_REQUIRED)
    @DeleteMapping("/api/v1/account/sessions")
    void endOtherSessions(Caller caller, HttpServletRequest request) {
        security.endOtherSessions(caller, request);
    }

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.SIGNED_IN, verifiedEmail = true)
    @AccountProblem.Codes(AccountProblem.TOTP_ALREADY_ENABLED)
    @AccountProblem.Reauthenticates
    @PostMapping(path = "/api/v1/account/totp", consumes = MediaType.APPLICATION_JSON_VALUE)
    Setup setUpTotp(Caller caller, @Valid @RequestBody Start body) {
        return twoStep.setup(caller, body);
    }

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.SIGNED_IN, verifiedEmail = true)
    @AccountProblem.Codes({
        AccountProblem.INVALID_CODE,
        AccountProblem.TOTP_ALREADY_ENABLED,
        AccountProblem.TOTP_NOT_STARTED,
        AccountProblem.SESSION_REQUIRED
    })
    @PostMapping(path = "/api/v1/account/totp/confirm", consumes = MediaType.APPLICATION_JSON_VALUE)
    RecoveryCodes confirmTotp(Caller caller, @RequestBody Code body) {
        return twoStep.confirm(caller, body);
    }

    @ApiContract(success = HttpStatus.NO_CONTENT, credentials = Credential.PORTAL, permission = Permission.SIGNED_IN)
    @AccountProblem.Codes({AccountProblem.INVALID_CODE, AccountProblem.TOTP_NOT_ENABLED})
    @AccountProblem.Reauthenticates
    @DeleteMapping(path = "/api/v1/account/totp", consumes = MediaType.APPLICATION_JSON_VALUE)
    void disableTotp(Caller caller, @RequestBody Disable body) {
        twoStep.disable(caller, body);
    }

    private static void pause(Duration duration) {
        if (duration.isNegative() || duration.isZero()) {
            return;
        }
        try {
            Thread.sleep(duration.toMillis(), (int) (duration.toNanos() % 1_000_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
