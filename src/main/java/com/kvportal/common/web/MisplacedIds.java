package com.kvportal.common.web;

import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationContext;
import org.springframework.http.server.PathContainer;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.util.ServletRequestPathUtils;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * Tells a path that no route matched because a segment where a route takes a UUID ({@link PathIds}) holds something
 * else, e.g. {@code DELETE /api/v1/api-keys/abc}: such a request answers 400, not 404. Every route's UUID variables
 * are relaxed to any segment, once, from the routes Spring MVC holds.
 */
@Component
@RequiredArgsConstructor
class MisplacedIds {

    private final ApplicationContext context;
    private volatile @Nullable List<Relaxed> routes;

    private record Relaxed(PathPattern pattern, List<String> ids) {}

    /** The name of the path variable that should have been a UUID, when the path is such a route's. */
    Optional<String> of(HttpServletRequest request) {
        PathContainer path = (ServletRequestPathUtils.hasParsedRequestPath(request)
                        ? ServletRequestPathUtils.getParsedRequestPath(request)
                        : ServletRequestPathUtils.parseAndCache(request))
                .pathWithinApplication();
        for (Relaxed route : routes()) {
            PathPattern.PathMatchInfo match = route.pattern().matchAndExtract(path);
            if (match != null) {
                for (String id : route.ids()) {
                    if (!match.getUriVariables().get(id).matches(PathIds.UUID)) {
                        return Optional.of(id);
                    }
                }
            }
        }
        return Optional.empty();
    }

    private List<Relaxed> routes() {
        List<Relaxed> relaxed = routes;
        if (relaxed == null) {
            relaxed = new ArrayList<>();
            var mappings = context.getBean("requestMappingHandlerMapping", RequestMappingHandlerMapping.class);
            for (var info : mappings.getHandlerMethods().keySet()) {
                if (info.getPathPatternsCondition() == null) {
                    continue;
                }
                for (PathPattern pattern : info.getPathPatternsCondition().getPatterns()) {
                    List<String> ids = PathIds.uuidVariables(pattern.getPatternString());
                    if (!ids.isEmpty()) {
                        String any = PathIds.relaxed(pattern.getPatternString());
                        relaxed.add(new Relaxed(PathPatternParser.defaultInstance.parse(any), List.copyOf(ids)));
                    }
                }
            }
            routes = relaxed;
        }
        return relaxed;
    }
}
