package com.kvportal.security;

import com.kvportal.common.web.BodyLimit;
import com.kvportal.common.web.PathIds;
import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.RequestPath;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * Who may call what, said once: the rule of every endpoint under {@value #API}, derived at start-up from the handler
 * methods Spring MVC holds (each one's HTTP method and path pattern) and their {@link ApiContract}; no path is listed
 * by hand. A handler under {@value #API} without {@code @ApiContract} stops the start. Security ({@link
 * SecurityConfig}, {@code web.CallerFilter}), the body limit ({@link BodyLimit}) and the usage feature's token check all
 * read a request's rules here.
 *
 * <p>A request meets the rules of the path pattern Spring MVC would route it to: the most specific pattern that matches
 * its path, an id that is not a UUID matching the id's place as it would (400 then, not 404); its own method's rule
 * where the pattern has one, else (a wrong method, answered 405) the rules of every method of the pattern. Everything
 * else is not an endpoint of the API and keeps its own treatment: a path under {@value #API} no handler serves is
 * public (404 for every caller); the dashboard's pages and static assets are public (a session's state-changing request
 * needs the CSRF token); the actuator is guarded by {@code web.ActuatorGuard}; the sandbox's pages and stand-ins under
 * {@value #SANDBOX} (the payment provider's API, the mail sandbox) are public and CSRF-exempt, and answer only when
 * the sandbox is on.
 */
@Component
public class EndpointRules implements SmartInitializingSingleton {

    /** Where the API's endpoints live: every handler below has an {@link ApiContract}. */
    static final String API = "/api/";

    /** The sandbox's pages and stand-ins: not the API, CSRF-exempt. */
    static final String SANDBOX = "/sandbox/";

    private static final String ATTRIBUTE = EndpointRules.class.getName();

    private final @Nullable ApplicationContext context;
    private volatile @Nullable List<Route> routes;

    @Autowired
    EndpointRules(ApplicationContext context) {
        this.context = context;
    }

    private EndpointRules(List<Route> routes) {
        this.context = null;
        this.routes = routes;
    }

    /** Rules from routes already derived (a test's). */
    static EndpointRules of(List<Route> routes) {
        return new EndpointRules(routes);
    }

    /** One endpoint: its rule, its pattern, and the pattern with its UUID ids relaxed to any segment. */
    record Route(EndpointRule rule, PathPattern pattern, PathPattern relaxed) {}

    /**
     * The rules a request meets: its own endpoint's ({@code exact}, when the path has one for its method), and those of
     * every method of its path pattern ({@code onPath}); both empty where the request reaches no endpoint of the API.
     */
    public record Match(Optional<EndpointRule> exact, List<EndpointRule> onPath) {

        static final Match NONE = new Match(Optional.empty(), List.of());

        /** Whether the path takes the credential, with any method (a wrong method answers as its path does). */
        public boolean pathTakes(Credential credential) {
            return onPath.stream().anyMatch(rule -> rule.takes(credential));
        }

        /** Whether the request needs a portal credential: its endpoint's rule, or for a wrong method its path's. */
        public boolean portal() {
            return exact.map(EndpointRule::portal)
                    .orElseGet(() -> onPath.stream().anyMatch(EndpointRule::portal));
        }

        /**
         * A path whose state-changing endpoint is public (a token call, signup, a provider's signed payload, the
         * storage backend's report): no session's ambient credential to forge, so no CSRF token, with any method.
         */
        public boolean csrfExempt() {
            return onPath.stream().anyMatch(rule -> !rule.portal() && rule.changesState());
        }

        /** The most any endpoint of the path takes; the default where the request reaches none. */
        public BodyLimit bodyLimit() {
            return onPath.stream()
                    .max(Comparator.comparingLong(EndpointRule::maxBodyBytes))
                    .map(rule -> new BodyLimit(rule.maxBodyBytes(), rule.takes(Credential.USAGE_TOKEN)))
                    .orElse(BodyLimit.DEFAULT);
        }
    }

    @Override
    public void afterSingletonsInstantiated() {
        routes();
    }

    /** Every endpoint's rule, by pattern and method. */
    public List<EndpointRule> all() {
        return routes().stream()
                .map(Route::rule)
                .sorted(Comparator.comparing(EndpointRule::pattern)
                        .thenComparing(r -> r.method().name()))
                .toList();
    }

    /** The rules the request meets, resolved once per request. */
    public Match of(HttpServletRequest request) {
        String key = request.getMethod() + " " + request.getRequestURI();
        if (request.getAttribute(ATTRIBUTE) instanceof Match cached
                && key.equals(request.getAttribute(ATTRIBUTE + ".key"))) {
            return cached;
        }
        PathContainer path = RequestPath.parse(request.getRequestURI(), request.getContextPath())
                .pathWithinApplication();
        Match match = match(HttpMethod.valueOf(request.getMethod()), path);
        request.setAttribute(ATTRIBUTE, match);
        request.setAttribute(ATTRIBUTE + ".key", key);
        return match;
    }

    Match match(HttpMethod method, PathContainer path) {
        for (boolean relaxed : new boolean[] {false, true}) {
            List<Route> onPath = routes().stream()
                    .filter(route -> (relaxed ? route.relaxed() : route.pattern()).matches(path))
                    .toList();
            if (onPath.isEmpty()) {
                continue;
            }
            Comparator<Route> specificity = Comparator.comparing(
                    route -> relaxed ? route.relaxed() : route.pattern(), PathPattern.SPECIFICITY_COMPARATOR);
            Optional<Route> exact = onPath.stream()
                    .filter(route -> reaches(method, route.rule().method()))
                    .min(specificity);
            PathPattern pattern = exact.orElseGet(
                            () -> onPath.stream().min(specificity).orElseThrow())
                    .pattern();
            return new Match(
                    exact.map(Route::rule),
                    onPath.stream()
                            .filter(route -> route.pattern().equals(pattern))
                            .map(Route::rule)
                            .toList());
        }
        return Match.NONE;
    }

    /** As Spring MVC routes: a HEAD reaches the GET endpoint. */
    private static boolean reaches(HttpMethod requested, HttpMethod mapped) {
        return requested.equals(mapped) || (requested.equals(HttpMethod.HEAD) && mapped.equals(HttpMethod.GET));
    }

    private List<Route> routes() {
        List<Route> derived = routes;
        if (derived == null) {
            derived = derive(Objects.requireNonNull(context)
                    .getBean("requestMappingHandlerMapping", RequestMappingHandlerMapping.class));
            routes = derived;
        }
        return derived;
    }

    /**
     * One route per handler method's path pattern and HTTP method under {@value #API}.
     *
     * @throws IllegalStateException when such a handler has no {@link ApiContract}, or maps no HTTP method
     */
    static List<Route> derive(RequestMappingHandlerMapping mapping) {
        List<Route> derived = new ArrayList<>();
        mapping.getHandlerMethods().forEach((RequestMappingInfo info, HandlerMethod handler) -> {
            if (info.getPathPatternsCondition() == null) {
                return;
            }
            for (PathPattern pattern : info.getPathPatternsCondition().getPatterns()) {
                if (!pattern.getPatternString().startsWith(API)) {
                    continue;
                }
                String where = handler.getBeanType().getSimpleName() + "."
                        + handler.getMethod().getName();
                ApiContract contract = handler.getMethodAnnotation(ApiContract.class);
                if (contract == null) {
                    throw new IllegalStateException(where + " serves " + pattern.getPatternString()
                            + " without @ApiContract: declare who may call it (see com.kvportal.openapi)");
                }
                if (info.getMethodsCondition().getMethods().isEmpty()) {
                    throw new IllegalStateException(where + " serves " + pattern.getPatternString()
                            + " for every HTTP method: map the one it takes (@GetMapping, @PostMapping, ...)");
                }
                PathPattern relaxed =
                        PathPatternParser.defaultInstance.parse(PathIds.relaxed(pattern.getPatternString()));
                for (RequestMethod method : info.getMethodsCondition().getMethods()) {
                    derived.add(new Route(
                            EndpointRule.of(
                                    method.asHttpMethod(),
                                    pattern.getPatternString(),
                                    handler.getMethod().getName(),
                                    contract),
                            pattern,
                            relaxed));
                }
            }
        });
        return List.copyOf(derived);
    }

    /** Whether the path lies in the sandbox, which is not the API. */
    public static boolean inSandbox(String routedPath) {
        return routedPath.startsWith(SANDBOX);
    }
}
