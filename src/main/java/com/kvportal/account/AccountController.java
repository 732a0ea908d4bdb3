package com.kvportal.account;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.kvportal.account.twostep.SecondStep;
import com.kvportal.account.twostep.TwoStepLogin;
import com.kvportal.common.web.CommonProblem;
import com.kvportal.security.ApiContract;
import com.kvportal.security.Caller;
import com.kvportal.security.Credential;
import com.kvportal.security.Permission;
import com.kvportal.security.SessionCaller;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.validation.Valid;
import java.util.List;
import java.util.UUID;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.security.web.csrf.CsrfTokenRepository;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** Signup, login, logout, the session and the projects of the current organization. */
@RestController
@Tag(
        name = "Account",
        description = "Sign up, log in and out, the session and its active project, and the projects of the"
                + " current organization.")
@RequiredArgsConstructor
class AccountController {

    private final Accounts accounts;
    private final CsrfTokenRepository csrfTokens;
    private final CustomerSessions sessions;
    private final TwoStepLogin twoStep;

    record SignedIn(UUID customerId, UUID organizationId, UUID projectId) {
        static SignedIn of(Caller caller) {
            return new SignedIn(caller.customerId(), caller.organizationId(), caller.projectId());
        }
    }

    /** A login's answer: the signup's ids, or, with two-step login on, only {@code mfa_required: true}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record LoginAnswer(
            @Schema(description = "Absent while the second step is due.") @Nullable UUID customerId,
            @Schema(description = "Absent while the second step is due.") @Nullable UUID organizationId,
            @Schema(description = "Absent while the second step is due.") @Nullable UUID projectId,
            @Schema(
                            requiredMode = Schema.RequiredMode.REQUIRED,
                            description = "True: send the second step to POST /api/v1/auth/login/totp.")
                    boolean mfaRequired) {

        static final LoginAnswer SECOND_STEP_DUE = new LoginAnswer(null, null, null, true);

        static LoginAnswer of(Caller caller) {
            return new LoginAnswer(caller.customerId(), caller.organizationId(), caller.projectId(), false);
        }
    }

    record ProjectList(@Schema(description = "The current organization's projects.") List<Project> projects) {}

    @ApiContract(
            credentials = {},
            success = HttpStatus.CREATED)
    @AccountProblem.Codes({
        AccountProblem.EMAIL_TAKEN,
        AccountProblem.TOKEN_INVALID,
        AccountProblem.INVITATION_EMAIL_MISMATCH
    })
    @CommonProblem.Codes(CommonProblem.TOO_MANY_REQUESTS)
    @PostMapping(path = "/api/v1/auth/signup", consumes = MediaType.APPLICATION_JSON_VALUE)
    SignedIn signUp(
            @Valid @RequestBody Accounts.Signup body, HttpServletRequest request, HttpServletResponse response) {
        Caller caller = accounts.signup(body);
        startSession(caller, request, response);
        return SignedIn.of(caller);
    }

    @ApiContract(credentials = {})
    @AccountProblem.Codes({AccountProblem.INVALID_CREDENTIALS, AccountProblem.TOO_MANY_ATTEMPTS})
    @CommonProblem.Codes(CommonProblem.TOO_MANY_REQUESTS)
    @PostMapping(path = "/api/v1/auth/login", consumes = MediaType.APPLICATION_JSON_VALUE)
    LoginAnswer logIn(
            @Valid @RequestBody Accounts.Login body, HttpServletRequest request, HttpServletResponse response) {
        Caller caller = accounts.checkPassword(body);
        if (twoStep.enabled(caller.customerId())) {
            twoStep.begin(request, caller);
            return LoginAnswer.SECOND_STEP_DUE;
        }
        return loggedIn(caller, request, response);
    }

    @ApiContract(credentials = {})
    @AccountProblem.Codes({AccountProblem.INVALID_LOGIN_CODE, AccountProblem.TOO_MANY_ATTEMPTS})
    @CommonProblem.Codes({CommonProblem.UNAUTHENTICATED, CommonProblem.TOO_MANY_REQUESTS})
    @PostMapping(path = "/api/v1/auth/login/totp", consumes = MediaType.APPLICATION_JSON_VALUE)
    LoginAnswer logInSecondStep(
            @RequestBody SecondStep body, HttpServletRequest request, HttpServletResponse response) {
        Caller caller = twoStep.complete(request, body);
        return loggedIn(caller, request, response);
    }

    @ApiContract(success = HttpStatus.NO_CONTENT, credentials = Credential.PORTAL, permission = Permission.SIGNED_IN)
    @PostMapping("/api/v1/auth/logout")
    void logOut(Caller caller, HttpServletRequest request) {
        accounts.logout(caller);
        SessionCaller.signOut(request);
    }

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.SIGNED_IN)
    @GetMapping("/api/v1/session")
    Accounts.SessionView getSession(Caller caller, HttpServletRequest request) {
        // touching the deferred token makes sure the XSRF-TOKEN cookie exists
        if (request.getAttribute(CsrfToken.class.getName()) instanceof CsrfToken token) {
            token.getToken();
        }
        return accounts.session(caller);
    }

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.SIGNED_IN)
    @AccountProblem.Codes({AccountProblem.PROJECT_NOT_FOUND, AccountProblem.SESSION_REQUIRED})
    @PutMapping(path = "/api/v1/session/project", consumes = MediaType.APPLICATION_JSON_VALUE)
    Accounts.SessionView switchProject(
            Caller caller, @Valid @RequestBody Accounts.ProjectSelection body, HttpServletRequest request) {
        Caller switched = accounts.switchProject(caller, body);
        SessionCaller.update(request, switched);
        return accounts.session(switched);
    }

    @ApiContract(credentials = Credential.PORTAL, permission = Permission.READ)
    @GetMapping("/api/v1/projects")
    ProjectList listProjects(Caller caller) {
        return new ProjectList(accounts.projects(caller));
    }

    @ApiContract(success = HttpStatus.CREATED, credentials = Credential.PORTAL, permission = Permission.MANAGE_KEYS)
    @AccountProblem.Codes(AccountProblem.PROJECT_LIMIT_REACHED)
    @PostMapping(path = "/api/v1/projects", consumes = MediaType.APPLICATION_JSON_VALUE)
    Project createProject(Caller caller, @Valid @RequestBody Accounts.NewProject body) {
        return accounts.createProject(caller, body);
    }

    /** A login that passed every step: recorded, and its session started. */
    private LoginAnswer loggedIn(Caller caller, HttpServletRequest request, HttpServletResponse response) {
        accounts.loggedIn(caller);
        startSession(caller, request, response);
        return LoginAnswer.of(caller);
    }

    /** A new session id and a new CSRF token at every sign-in. */
    private void startSession(Caller caller, HttpServletRequest request, HttpServletResponse response) {
        SessionCaller.signIn(request, caller);
        sessions.started(request, caller.customerId());
        csrfTokens.saveToken(csrfTokens.generateToken(request), request, response);
    }
}
