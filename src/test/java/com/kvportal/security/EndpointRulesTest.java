package com.kvportal.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Method;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.PathContainer;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * The derivation of the endpoints' rules, without a server: a handler under {@code /api/} without {@link ApiContract}
 * stops the start, one outside is left alone, and a rule carries what the contract says. {@code DerivedRulesTest}
 * pins the rules the running service derives.
 */
class EndpointRulesTest {

    static class Handlers {
        @ApiContract(credentials = Credential.PORTAL, permission = Permission.MANAGE_KEYS, verifiedEmail = true)
        void portalCall() {}

        @ApiContract(credentials = Credential.USAGE_TOKEN, maxBodyKiB = 1024)
        void largeReport() {}

        void undeclared() {}
    }

    private static RequestMappingHandlerMapping mapping(String path, RequestMethod method, String handler)
            throws NoSuchMethodException {
        RequestMappingInfo.BuilderConfiguration options = new RequestMappingInfo.BuilderConfiguration();
        options.setPatternParser(PathPatternParser.defaultInstance);
        RequestMappingHandlerMapping mapping = new RequestMappingHandlerMapping();
        Method target = Handlers.class.getDeclaredMethod(handler);
        mapping.registerMapping(
                RequestMappingInfo.paths(path).methods(method).options(options).build(), new Handlers(), target);
        return mapping;
    }

    @Test
    void shouldRefuseAnApiHandlerWithoutApiContract() {
        assertThatThrownBy(() -> EndpointRules.derive(mapping("/api/v1/things", RequestMethod.GET, "undeclared")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Handlers.undeclared serves /api/v1/things without @ApiContract");
    }

    @Test
    void shouldLeaveAHandlerOutsideTheApiAlone() throws Exception {
        assertThat(EndpointRules.derive(mapping("/dashboard/things", RequestMethod.GET, "undeclared")))
                .isEmpty();
    }

    @Test
    void shouldDeriveTheRuleFromTheContract() throws Exception {
        var portal = EndpointRules.derive(mapping("/api/v1/things", RequestMethod.POST, "portalCall"));
        var report = EndpointRules.derive(mapping("/api/v1/reports", RequestMethod.POST, "largeReport"));

        assertThat(portal).singleElement().satisfies(route -> {
            assertThat(route.rule())
                    .isEqualTo(new EndpointRule(
                            HttpMethod.POST,
                            "/api/v1/things",
                            "portalCall",
                            Set.of(Credential.PORTAL),
                            Permission.MANAGE_KEYS,
                            64 * 1024));
            assertThat(route.rule().portal()).isTrue();
            assertThat(route.rule().changesState()).isTrue();
        });
        assertThat(report).singleElement().satisfies(route -> {
            assertThat(route.rule().maxBodyBytes()).isEqualTo(1024 * 1024);
            assertThat(route.rule().portal()).isFalse();
        });
    }

    @Test
    void shouldMatchAsSpringMvcRoutes() throws Exception {
        RequestMappingInfo.BuilderConfiguration options = new RequestMappingInfo.BuilderConfiguration();
        options.setPatternParser(PathPatternParser.defaultInstance);
        RequestMappingHandlerMapping mapping = new RequestMappingHandlerMapping();
        mapping.registerMapping(
                RequestMappingInfo.paths("/api/v1/things/{id:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-"
                                + "[0-9a-fA-F]{4}-[0-9a-fA-F]{12}}")
                        .methods(RequestMethod.DELETE)
                        .options(options)
                        .build(),
                new Handlers(),
                Handlers.class.getDeclaredMethod("portalCall"));
        mapping.registerMapping(
                RequestMappingInfo.paths("/api/v1/things/report")
                        .methods(RequestMethod.POST)
                        .options(options)
                        .build(),
                new Handlers(),
                Handlers.class.getDeclaredMethod("largeReport"));
        EndpointRules rules = EndpointRules.of(EndpointRules.derive(mapping));

        // the literal sibling is its own endpoint; a wrong method on it answers as its path does (public: 405)
        var report = rules.match(HttpMethod.POST, PathContainer.parsePath("/api/v1/things/report"));
        assertThat(report.exact())
                .hasValueSatisfying(rule -> assertThat(rule.operation()).isEqualTo("largeReport"));
        var wrongMethod = rules.match(HttpMethod.DELETE, PathContainer.parsePath("/api/v1/things/report"));
        assertThat(wrongMethod.exact()).isEmpty();
        assertThat(wrongMethod.portal()).isFalse();
        assertThat(wrongMethod.csrfExempt()).isTrue();
        assertThat(wrongMethod.bodyLimit().bytes()).isEqualTo(1024 * 1024);
        // an id that is not a UUID meets the id route's rule (its handler answers 400 once the caller may call it)
        var notAnId = rules.match(HttpMethod.DELETE, PathContainer.parsePath("/api/v1/things/abc"));
        assertThat(notAnId.exact())
                .hasValueSatisfying(rule -> assertThat(rule.operation()).isEqualTo("portalCall"));
        assertThat(notAnId.portal()).isTrue();
        // a path no handler serves meets no rule
        assertThat(rules.match(HttpMethod.GET, PathContainer.parsePath("/api/v1/things/a/b")))
                .isEqualTo(EndpointRules.Match.NONE);
    }
}
