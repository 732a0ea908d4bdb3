package com.kvportal.account;

import com.kvportal.account.AccountProblem.EmailTaken;
import com.kvportal.account.AccountProblem.InvalidCredentials;
import com.kvportal.account.AccountProblem.ProjectLimitReached;
import com.kvportal.account.AccountProblem.SessionRequired;
import com.kvportal.account.AccountProblem.TooManyAttempts;
import com.kvportal.account.teams.Invitations;
import com.kvportal.account.teams.Members;
import com.kvportal.account.teams.Teams;
import com.kvportal.common.validation.DisplayName;
import com.kvportal.common.validation.EmailAddress;
import com.kvportal.common.validation.NewPassword;
import com.kvportal.common.validation.Required;
import com.kvportal.security.Caller;
import com.kvportal.security.CallerRoles;
import com.kvportal.security.Permission;
import com.kvportal.security.Role;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import lombok.AccessLevel;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Accounts: signup, login, the projects a customer reaches and the active one. */
@Service
@RequiredArgsConstructor(access = AccessLevel.PACKAGE)
public class Accounts {

    static final int MAX_PROJECTS_PER_ORGANIZATION = 100;
    public static final int MAX_NAME_LENGTH = 100;

    private final Customers customers;
    private final Projects projects;
    private final Members members;
    private final CallerRoles roles;
    private final Teams teams;
    private final LoginThrottle throttle;
    private final PasswordEncoder passwords;
    private final PasswordCheck passwordCheck;
    private final ApplicationEventPublisher events;

    /** A signup as sent; the password's length counts characters as a person does (an emoji is one). */
    record Signup(
            @Schema(
                            description = "A valid address of at most 254 characters, unique case-insensitively.",
                            example = "ada@example.com")
                    @EmailAddress
                    @Nullable
                    String email,
            @Schema(description = "12 to 128 characters.", example = "correct horse battery") @NewPassword @Nullable
                    String password,
            @Schema(description = "1-100 characters once trimmed; default: derived from the email.", example = "Acme")
                    @DisplayName(max = MAX_NAME_LENGTH, required = false)
                    @Nullable
                    String organizationName,
            @Schema(
                            description = "The token of an invitation's link: the signup joins that organization"
                                    + " (instead of creating one) and counts the address as verified. It must be the"
                                    + " invited address.")
                    @Nullable
                    String invitationToken) {}

    /**
     * A login as sent: the email must be one that signup would take (else 400 {@code validation_failed}, before any
     * attempt is counted); the password is not checked before the credentials, so that every failure reads the same.
     */
    record Login(
            @Schema(
                            description = "A valid address of at most 254 characters, as signup takes it.",
                            example = "ada@example.com")
                    @EmailAddress
                    @Nullable
                    String email,
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "correct horse battery") @Nullable
                    String password) {}

    record NewProject(
            @Schema(description = "1-100 characters once trimmed, no control characters.", example = "Staging")
                    @DisplayName(max = MAX_NAME_LENGTH)
                    @Nullable
                    String name) {}

    record ProjectSelection(
            @Schema(description = "A project of the customer's organizations.") @Required @Nullable UUID projectId) {}

    /** What the session view shows: the customer, the active project and every project in reach. */
    public record SessionView(
            UUID customerId,
            String email,
            @Schema(description = "Whether the customer opened the verification link sent to the address.")
                    boolean emailVerified,
            @Schema(description = "Whether two-step login (TOTP) is on.") boolean totpEnabled,
            @Schema(
                            nullable = true,
                            description =
                                    "The current organization: the active project's; null when the customer is in none.")
                    @Nullable
                    UUID organizationId,
            @Schema(nullable = true, description = "The active project; null when the customer is in no organization.")
                    @Nullable
                    UUID projectId,
            @Schema(description = "Every project of the customer's organizations.") List<ProjectRef> projects,
            @Schema(description = "The customer's organizations, with the customer's role in each.")
                    List<OrganizationRef> organizations) {}

    public record ProjectRef(UUID id, UUID organizationId, String name) {}

    public record OrganizationRef(
            UUID id,
            String name,
            Role role,
            @Schema(description = "What the role may do here (the rows of the roles table), e.g. manage_keys.")
                    List<String> permissions) {

        OrganizationRef(UUID id, String name, Role role) {
            this(id, name, role, Permission.heldBy(role));
        }
    }

    /** Signs up a validated request: a customer, its organization and a default project. */
    @Transactional
    Caller signup(Signup request) {
        String email = Objects.requireNonNull(request.email()).strip();
        String password = Objects.requireNonNull(request.password());
        String organizationName = request.organizationName() == null
                ? null
                : request.organizationName().strip();
        Invitations.Pending invitation =
                request.invitationToken() == null ? null : teams.invitationForSignup(request.invitationToken(), email);
        if (customers.emailExists(email)) {
            throw new EmailTaken();
        }
        UUID customerId = UUID.randomUUID();
        try {
            customers.insertCustomer(customerId, email, passwords.encode(password));
        } catch (DuplicateKeyException e) {
            throw new EmailTaken();
        }
        Project project;
        if (invitation == null) {
            UUID organizationId = UUID.randomUUID();
            customers.insertOrganization(
                    organizationId,
                    organizationName == null ? email + "'s organization" : organizationName,
                    customerId);
            project = projects.insert(UUID.randomUUID(), organizationId, "Default project");
        } else {
            // the invitation's link reached the address: it counts as verified (no verification mail goes)
            customers.markEmailVerified(customerId);
            teams.join(invitation, customerId, email);
            project = projects.ofOrganization(invitation.organizationId()).get(0);
        }
        events.publishEvent(new AccountEvent.SignedUp(customerId, email, project.organizationId(), project.id()));
        return Caller.ofSession(customerId, project.organizationId(), project.id());
    }

    /** Not one transaction: a failed attempt is counted (and published) although the login fails. */
    Caller login(Login request) {
        Caller caller = checkPassword(request);
        loggedIn(caller);
        return caller;
    }

    /** The first step of a login: the caller whose password this is, or the login's failure. */
    Caller checkPassword(Login request) {
        String email = request.email() == null ? "" : request.email().strip();
        String password = request.password() == null ? "" : request.password();
        Optional<java.time.Duration> locked = throttle.attempt(email);
        Optional<Customers.Credentials> customer = customers.findByEmail(email);
        if (locked.isPresent()) {
            customer.ifPresent(known -> loginFailed(known, "too_many_attempts"));
            throw new TooManyAttempts(locked.get());
        }
        if (!passwordCheck.matches(password, customer)) {
            customer.ifPresent(known -> loginFailed(known, "invalid_credentials"));
            throw new InvalidCredentials();
        }
        throttle.succeeded(email);
        return firstCaller(customer.orElseThrow().id());
    }

    /** The login is complete (with its second step, if the customer has one). */
    void loggedIn(Caller caller) {
        if (caller.organizationId() == null) {
            return; // in no organization: nowhere to audit the login
        }
        events.publishEvent(new AccountEvent.LoggedIn(
                caller.customerId(),
                customers.emailOf(caller.customerId()).orElse(""),
                caller.organizationId(),
                caller.projectId()));
    }

    private void loginFailed(Customers.Credentials customer, String reason) {
        // a customer in no organization has nowhere to audit the failure
        projects.ofCustomer(customer.id()).stream()
                .findFirst()
                .ifPresent(first -> events.publishEvent(
                        new AccountEvent.LoginFailed(customer.id(), customer.email(), first.organizationId(), reason)));
    }

    /**
     * The customer at the first project of the first organization; a customer in no organization (all left or
     * removed) gets a caller without organization and project, which every call that needs a membership refuses.
     */
    @SuppressWarnings("NullAway")
    private Caller firstCaller(UUID customerId) {
        return members.current(Caller.ofSession(customerId, null, null));
    }

    /** The caller signs out; the session itself is dropped by the web layer. */
    void logout(Caller caller) {
        events.publishEvent(new AccountEvent.LoggedOut(
                caller.customerId(), caller.organizationId(), caller.projectId(), caller.apiKeyId()));
    }

    SessionView session(Caller caller) {
        String email = customers.emailOf(caller.customerId()).orElse("");
        List<ProjectRef> reach = (caller.viaApiKey()
                        ? projects.ofOrganization(caller.organizationId())
                        : projects.ofCustomer(caller.customerId()))
                .stream()
                        .map(p -> new ProjectRef(p.id(), p.organizationId(), p.name()))
                        .toList();
        // a key reaches its project's organization only, with the role it acts with there
        List<OrganizationRef> organizations = caller.viaApiKey()
                ? customers.organization(caller.organizationId()).stream()
                        .map(o -> new OrganizationRef(
                                o.id(), o.name(), roles.of(caller).orElseThrow()))
                        .toList()
                : members.organizationsOf(caller.customerId()).stream()
                        .map(o -> new OrganizationRef(o.id(), o.name(), o.role()))
                        .toList();
        return new SessionView(
                caller.customerId(),
                email,
                customers.emailVerified(caller.customerId()),
                customers.totpEnabled(caller.customerId()),
                caller.organizationId(),
                caller.projectId(),
                reach,
                organizations);
    }

    Caller switchProject(Caller caller, ProjectSelection selection) {
        if (caller.viaApiKey()) {
            throw new SessionRequired();
        }
        Project project = projects.findForCustomer(caller.customerId(), Objects.requireNonNull(selection.projectId()))
                .orElseThrow(AccountProblem.PROJECT_NOT_FOUND::exception);
        return caller.withProject(project.organizationId(), project.id());
    }

    List<Project> projects(Caller caller) {
        return projects.ofOrganization(caller.organizationId());
    }

    @Transactional
    Project createProject(Caller caller, NewProject request) {
        String name = Objects.requireNonNull(request.name()).strip();
        // the organization's lock, as for its members: two creations count one after the other
        members.lockOrganization(caller.organizationId());
        if (projects.countInOrganization(caller.organizationId()) >= MAX_PROJECTS_PER_ORGANIZATION) {
            throw new ProjectLimitReached(MAX_PROJECTS_PER_ORGANIZATION);
        }
        Project project = projects.insert(UUID.randomUUID(), caller.organizationId(), name);
        events.publishEvent(new AccountEvent.ProjectCreated(caller.organizationId(), project.id(), project.name()));
        return project;
    }

    /** The email address of a customer, e.g. to name who acted in an audit line. */
    public Optional<String> emailOf(UUID customerId) {
        return customers.emailOf(customerId);
    }

    /** The organization with its owner's email, for other features (e.g. the payment provider's customer). */
    public Optional<Organization> organization(UUID organizationId) {
        return customers.organization(organizationId);
    }
}
