package com.kvportal.security.web;

import com.kvportal.common.web.BodyLimit;
import com.kvportal.common.web.CommonProblem;
import com.kvportal.common.web.Problems;
import com.kvportal.common.web.RoutedPath;
import com.kvportal.security.ApiContract;
import com.kvportal.security.ApiKeyAuthenticator;
import com.kvportal.security.EndpointRules;
import com.kvportal.security.SessionCaller;
import com.kvportal.security.password.Passwords;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Set;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.AnonymousAuthenticationFilter;
import org.springframework.security.web.context.RequestAttributeSecurityContextRepository;
import org.springframework.security.web.csrf.CookieCsrfTokenRepository;
import org.springframework.security.web.csrf.CsrfException;
import org.springframework.security.web.csrf.CsrfTokenRepository;
import org.springframework.security.web.csrf.CsrfTokenRequestAttributeHandler;
import org.springframework.security.web.header.writers.ReferrerPolicyHeaderWriter.ReferrerPolicy;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Who may call what, as the endpoints' rules say ({@link EndpointRules}, derived from their {@link ApiContract}).
 * Sessions (the dashboard) and API keys (automation) both reach the portal calls; state-changing calls with a session
 * must echo the {@code XSRF-TOKEN} cookie in {@code X-XSRF-TOKEN}.
 */
@Configuration(proxyBeanMethods = false)
@EnableWebSecurity
class SecurityConfig {

    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS", "TRACE");

    @Bean
    SecurityFilterChain securityFilterChain(
            HttpSecurity http,
            ApiKeyAuthenticator apiKeys,
            Problems problems,
            CsrfTokenRepository csrfTokens,
            EndpointRules rules)
            throws Exception {
        http.csrf(csrf -> csrf.csrfTokenRepository(csrfTokens)
                        .csrfTokenRequestHandler(new CsrfTokenRequestAttributeHandler())
                        .requireCsrfProtectionMatcher(request -> needsCsrfCheck(request, rules)))
                // sessions are ours (SessionCaller); Spring Security must not rotate the CSRF token per request
                .sessionManagement(session -> session.disable())
                .securityContext(
                        context -> context.securityContextRepository(new RequestAttributeSecurityContextRepository()))
                .requestCache(cache -> cache.disable())
                .formLogin(form -> form.disable())
                .httpBasic(basic -> basic.disable())
                .logout(logout -> logout.disable())
                .addFilterBefore(new CallerFilter(apiKeys, problems, rules), AnonymousAuthenticationFilter.class)
                // the endpoints' rules (EndpointRules): a portal call needs a session or an admin key; anything else
                // is public here (its own credential, if any, is checked by its feature)
                .authorizeHttpRequests(authorize -> authorize
                        .requestMatchers(request -> rules.of(request).portal())
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

    @Bean
    PasswordEncoder passwordEncoder() {
        return Passwords.encoder();
    }

    /**
     * Every request meets its endpoint's body limit ({@link EndpointRules.Match#bodyLimit()}), set before anything
     * reads the body (the filter that enforces it, in common, runs next).
     */
    @Bean
    FilterRegistrationBean<OncePerRequestFilter> endpointBodyLimits(EndpointRules rules) {
        FilterRegistrationBean<OncePerRequestFilter> registration =
                new FilterRegistrationBean<>(new OncePerRequestFilter() {
                    @Override
                    protected void doFilterInternal(
                            HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                            throws ServletException, IOException {
                        BodyLimit.set(request, rules.of(request).bodyLimit());
                        chain.doFilter(request, response);
                    }
                });
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 1);
        registration.setName("endpointBodyLimits");
        return registration;
    }

    /**
     * A state-changing call made with a session, unless its path's state-changing endpoint is public or it lies in the
     * sandbox; bearer calls carry no ambient credential to forge.
     */
    private static boolean needsCsrfCheck(HttpServletRequest request, EndpointRules rules) {
        return !SAFE_METHODS.contains(request.getMethod())
                && request.getHeader("Authorization") == null
                && !rules.of(request).csrfExempt()
                && !EndpointRules.inSandbox(RoutedPath.of(request))
                && SessionCaller.of(request).isPresent();
    }
}
