package com.kvportal.security;

import com.kvportal.common.web.CommonProblem;
import com.kvportal.common.web.Problems;
import com.kvportal.common.web.RoutedPath;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.crypto.password.DelegatingPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.AnonymousAuthenticationFilter;
import org.springframework.security.web.context.RequestAttributeSecurityContextRepository;
import org.springframework.security.web.csrf.CookieCsrfTokenRepository;
import org.springframework.security.web.csrf.CsrfException;
import org.springframework.security.web.csrf.CsrfTokenRepository;
import org.springframework.security.web.csrf.CsrfTokenRequestAttributeHandler;
import org.springframework.security.web.header.writers.ReferrerPolicyHeaderWriter.ReferrerPolicy;

/**
 * Who may call what. Sessions (the dashboard) and API keys (automation) both reach the portal calls;
 * state-changing calls with a session must echo the {@code XSRF-TOKEN} cookie in {@code X-XSRF-TOKEN}.
 */
@Configuration(proxyBeanMethods = false)
@EnableWebSecurity
class SecurityConfig {

    /** GitHub secret scanning reports leaked keys here; its ECDSA signature over the body is the credential. */
    private static final String LEAKED_KEYS_PATH = "/api/v1/security/leaked-keys";

    /**
     * CSRF-exempt and public: calls whose credential is a mailed link's token, the request for a reset link, and a
     * login's second step (its intermediate session carries no caller). JSON only, like signup.
     */
    private static final Set<String> TOKEN_CALLS = Set.of(
            "/api/v1/auth/verify-email",
            "/api/v1/auth/password-reset",
            "/api/v1/auth/password-reset/confirm",
            "/api/v1/auth/email-change/confirm",
            "/api/v1/auth/login/totp");

    /**
     * Calls that need no credential at all: the token calls and these. Matched for every method, so that a wrong
     * method on them answers 405 (from Spring MVC), not 401: these paths have no handler that needs a credential.
     */
    private static final String[] PUBLIC = Stream.concat(
                    TOKEN_CALLS.stream(),
                    Stream.of(
                            "/api/v1/auth/signup",
                            "/api/v1/auth/login",
                            CallerFilter.VERIFY_PATH,
                            CallerFilter.USAGE_REPORTING_PATH,
                            "/api/v1/billing/webhook",
                            "/api/v1/billing/plans",
                            "/api/v1/billing/checkout/success",
                            "/api/v1/billing/checkout/cancel",
                            LEAKED_KEYS_PATH))
            .toArray(String[]::new);

    /** Calls that need a session or an admin key. Any other path is public or does not exist (404). */
    private static final String[] PORTAL = {
        "/api/v1/api-keys/**",
        "/api/v1/projects/**",
        "/api/v1/session/**",
        "/api/v1/auth/logout",
        "/api/v1/account/**",
        "/api/v1/billing/**",
        "/api/v1/usage",
        "/api/v1/usage/periods",
        "/api/v1/usage/limits",
        "/api/v1/audit-events/**",
        "/api/v1/members/**",
        "/api/v1/invitations/**",
        "/api/v1/organizations",
        "/api/v1/organization/**",
        "/api/v1/webhook-endpoints/**"
    };

    /**
     * CSRF-exempt: they take JSON only (no cross-site form can send it), belong to the payment provider, or (verify)
     * read nothing but the Authorization header, which a cross-site request cannot set. Usage reporting takes the
     * storage backend's token only (checked by the usage feature), never a session.
     */
    private static final Set<String> CSRF_EXEMPT = Set.of(
            "/api/v1/auth/signup",
            "/api/v1/auth/login",
            "/api/v1/billing/webhook",
            CallerFilter.VERIFY_PATH,
            CallerFilter.USAGE_REPORTING_PATH,
            LEAKED_KEYS_PATH);

    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS", "TRACE");

    @Bean
    SecurityFilterChain securityFilterChain(
            HttpSecurity http, ApiKeyAuthenticator apiKeys, Problems problems, CsrfTokenRepository csrfTokens)
            throws Exception {
        http.csrf(csrf -> csrf.csrfTokenRepository(csrfTokens)
                        .csrfTokenRequestHandler(new CsrfTokenRequestAttributeHandler())
                        .requireCsrfProtectionMatcher(SecurityConfig::needsCsrfCheck))
                // sessions are ours (SessionCaller); Spring Security must not rotate the CSRF token per request
                .sessionManagement(session -> session.disable())
                .securityContext(
                        context -> context.securityContextRepository(new RequestAttributeSecurityContextRepository()))
                .requestCache(cache -> cache.disable())
                .formLogin(form -> form.disable())
                .httpBasic(basic -> basic.disable())
                .logout(logout -> logout.disable())
                .addFilterBefore(new CallerFilter(apiKeys, problems), AnonymousAuthenticationFilter.class)
                .authorizeHttpRequests(authorize -> authorize
                        .requestMatchers(PUBLIC)
                        .permitAll()
                        .requestMatchers(PORTAL)
                        .access(new PortalAccess())
                        .anyRequest()
                        .permitAll())
                .exceptionHandling(errors -> errors.authenticationEntryPoint((request, response, e) -> {
                            response.setHeader("WWW-Authenticate", "Bearer");
                            problems.write(response, Problems.unauthenticated());
                        })
                        .accessDeniedHandler((request, response, e) -> {
                            if (e instanceof CsrfException) {
                                problems.write(
                                        response,
                                        CommonProblem.CSRF_FAILED,
                                        "Send the value of the XSRF-TOKEN cookie in the X-XSRF-TOKEN header.");
                            } else {
                                problems.write(
                                        response,
                                        CommonProblem.INSUFFICIENT_PERMISSIONS,
                                        "This API key lacks the admin permission that portal calls need.");
                            }
                        }))
                .headers(headers -> headers.contentSecurityPolicy(csp -> csp.policyDirectives(
                                "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                                        + "frame-ancestors 'none'; base-uri 'self'; object-src 'none'"))
                        .referrerPolicy(referrer -> referrer.policy(ReferrerPolicy.SAME_ORIGIN)));
        return http.build();
    }

    @Bean
    CsrfTokenRepository csrfTokenRepository() {
        CookieCsrfTokenRepository repository = CookieCsrfTokenRepository.withHttpOnlyFalse();
        repository.setCookieCustomizer(cookie -> cookie.sameSite("Lax"));
        return repository;
    }

    /**
     * Argon2id behind an id prefix ({@code {argon2}...}) for every new hash; the {@code {bcrypt}} hashes of before
     * still verify, and {@code upgradeEncoding} tells the login to store the password anew.
     */
    @Bean
    PasswordEncoder passwordEncoder() {
        return new DelegatingPasswordEncoder("argon2", Map.of("argon2", new Argon2id(), "bcrypt", new LegacyBcrypt()));
    }

    /** A state-changing call made with a session; bearer calls carry no ambient credential to forge. */
    private static boolean needsCsrfCheck(HttpServletRequest request) {
        return !SAFE_METHODS.contains(request.getMethod())
                && request.getHeader("Authorization") == null
                && !CSRF_EXEMPT.contains(RoutedPath.of(request))
                && !TOKEN_CALLS.contains(RoutedPath.of(request))
                && !RoutedPath.of(request).startsWith("/sandbox/")
                && SessionCaller.of(request).isPresent();
    }
}
