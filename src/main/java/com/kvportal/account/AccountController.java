package com.kvportal.account;

import com.kvportal.security.Caller;
import com.kvportal.security.SessionCaller;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.validation.Valid;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.security.web.csrf.CsrfTokenRepository;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** Signup, login, logout, the session and the projects of the current organization. */
@RestController
class AccountController {

    private final Accounts accounts;
    private final CsrfTokenRepository csrfTokens;

    AccountController(Accounts accounts, CsrfTokenRepository csrfTokens) {
        this.accounts = accounts;
        this.csrfTokens = csrfTokens;
    }

    record SignedIn(UUID customerId, UUID organizationId, UUID projectId) {
        static SignedIn of(Caller caller) {
            return new SignedIn(caller.customerId(), caller.organizationId(), caller.projectId());
        }
    }

    @PostMapping(path = "/api/v1/auth/signup", consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<SignedIn> signup(
            @Valid @RequestBody Accounts.Signup body, HttpServletRequest request, HttpServletResponse response) {
        Caller caller = accounts.signup(body);
        startSession(caller, request, response);
        return ResponseEntity.status(HttpStatus.CREATED).body(SignedIn.of(caller));
    }

    @PostMapping(path = "/api/v1/auth/login", consumes = MediaType.APPLICATION_JSON_VALUE)
    SignedIn login(@RequestBody Accounts.Login body, HttpServletRequest request, HttpServletResponse response) {
        Caller caller = accounts.login(body);
        startSession(caller, request, response);
        return SignedIn.of(caller);
    }

    @PostMapping("/api/v1/auth/logout")
    ResponseEntity<Void> logout(Caller caller, HttpServletRequest request) {
        accounts.logout(caller);
        SessionCaller.signOut(request);
        return ResponseEntity.noContent().build();
    }

    @GetMapping("/api/v1/session")
    Accounts.SessionView session(Caller caller, HttpServletRequest request) {
        // touching the deferred token makes sure the XSRF-TOKEN cookie exists
        if (request.getAttribute(CsrfToken.class.getName()) instanceof CsrfToken token) {
            token.getToken();
        }
        return accounts.session(caller);
    }

    @PutMapping(path = "/api/v1/session/project", consumes = MediaType.APPLICATION_JSON_VALUE)
    Accounts.SessionView switchProject(
            Caller caller, @Valid @RequestBody Accounts.ProjectSelection body, HttpServletRequest request) {
        Caller switched = accounts.switchProject(caller, body);
        SessionCaller.update(request, switched);
        return accounts.session(switched);
    }

    @GetMapping("/api/v1/projects")
    Map<String, List<Project>> projects(Caller caller) {
        return Map.of("projects", accounts.projects(caller));
    }

    @PostMapping(path = "/api/v1/projects", consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Project> createProject(Caller caller, @Valid @RequestBody Accounts.NewProject body) {
        return ResponseEntity.status(HttpStatus.CREATED).body(accounts.createProject(caller, body));
    }

    /** A new session id and a new CSRF token at every sign-in. */
    private void startSession(Caller caller, HttpServletRequest request, HttpServletResponse response) {
        SessionCaller.signIn(request, caller);
        csrfTokens.saveToken(csrfTokens.generateToken(request), request, response);
    }
}
