package com.kvportal.support;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.model.SimpleRequest;
import com.atlassian.oai.validator.model.SimpleResponse;
import com.atlassian.oai.validator.report.LevelResolver;
import com.atlassian.oai.validator.report.ValidationReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The OpenAPI document a server serves at {@code /v3/api-docs}, loaded once per server, against which {@link Api}
 * checks every exchange on {@code /api/}: the response always (an undocumented status, field, header or content type
 * fails the test), and the request whenever the server accepted it (the document must not forbid what the server
 * takes). A request the server refuses with a 4xx may break the document's rules: tests send malformed requests on
 * purpose, and the refusal is then what gets checked.
 */
public final class ApiDocument {

    /** The last few servers' documents: a test class talks to one or two servers. */
    private static final Map<String, ApiDocument> DOCUMENTS = new LinkedHashMap<>(8, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ApiDocument> eldest) {
            return size() > 4;
        }
    };

    /** Which documented operations and statuses the suite exchanged: written to target/ when the JVM ends. */
    private static final Set<String> EXERCISED = ConcurrentHashMap.newKeySet();

    private static final Set<String> DOCUMENTED = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ApiDocument::writeCoverage));
    }

    private final OpenApiInteractionValidator validator;
    private final List<Route> routes = new ArrayList<>();

    private record Route(String method, String template, Pattern pattern) {}

    private ApiDocument(String json) {
        this.validator = OpenApiInteractionValidator.createForInlineApiSpecification(json)
                .withLevelResolver(LevelResolver.create()
                        // every field of a response must be documented ...
                        .withLevel("validation.schema.additionalProperties", ValidationReport.Level.ERROR)
                        // ... while a request may carry more than the document names: a provider's payload does
                        // (webhook, leaked keys); every other operation refuses an unknown field (EveryEndpointTest)
                        .withLevel("validation.request.body.schema.additionalProperties", ValidationReport.Level.IGNORE)
                        // credentials are the server's to judge; their 401 and 403 answers are checked
                        .withLevel("validation.request.security", ValidationReport.Level.IGNORE)
                        .build())
                .build();
        JsonNode document = Api.JSON.readTree(json);
        document.path("paths")
                .properties()
                .forEach(path -> path.getValue().properties().forEach(operation -> {
                    String method = operation.getKey().toUpperCase();
                    routes.add(new Route(
                            method, path.getKey(), Pattern.compile(path.getKey().replaceAll("\\{[^}]+}", "[^/]+"))));
                    operation
                            .getValue()
                            .path("responses")
                            .propertyNames()
                            .forEach(status -> DOCUMENTED.add(method + " " + path.getKey() + " " + status));
                }));
    }

    /** The document of the server at this base URL. */
    public static synchronized ApiDocument of(String base) {
        ApiDocument document = DOCUMENTS.get(base);
        if (document == null) {
            document = new ApiDocument(fetch(base));
            DOCUMENTS.put(base, document);
        }
        return document;
    }

    /** The document as the server at this base URL serves it. */
    public static String fetch(String base) {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(URI.create(base + "/v3/api-docs"))
                            .timeout(Duration.ofSeconds(60))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new AssertionError("GET /v3/api-docs answered " + response.statusCode()
                        + " (an /api/ operation without @ApiContract or an entry in openapi/operations.yaml? see the log): "
                        + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Checks one exchange; fails with every violation found.
     *
     * @param requestBody the body sent, or null when it is not known as text (then only the response is checked)
     */
    void check(
            String method,
            String pathAndQuery,
            Map<String, List<String>> requestHeaders,
            @Nullable String requestBody,
            HttpResponse<String> response) {
        URI uri = URI.create("http://host" + pathAndQuery.replace(" ", "%20"));
        // matched as the server routes it: each segment percent-decoded
        String path = uri.getPath();
        if (path == null || !path.startsWith("/api/") || method.equals("OPTIONS") || method.equals("HEAD")) {
            // OPTIONS and HEAD are answered by the HTTP layer for every path, not operations of the API
            return;
        }
        @Nullable Route route = route(method, path);
        if (route == null) {
            // no such operation: the server must refuse it (404, 405, or the firewall's 400)
            if (response.statusCode() < 400 || response.statusCode() >= 500) {
                throw new AssertionError(method + " " + path + " is not in the OpenAPI document but answered "
                        + response.statusCode() + ": document it (see com.kvportal.openapi)");
            }
            return;
        }
        if (response.statusCode() == 500
                && response.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json")) {
            // a failure provoked on purpose (e.g. the audit record cannot be written): no outcome the API documents
            return;
        }
        EXERCISED.add(route.method() + " " + route.template() + " " + response.statusCode());
        SimpleResponse.Builder answered = new SimpleResponse.Builder(response.statusCode());
        response.headers().map().forEach(answered::withHeader);
        if (!response.body().isEmpty()) {
            answered.withBody(response.body());
        }
        List<ValidationReport.Message> violations = new ArrayList<>();
        @Nullable
        SimpleRequest request = requestBody == null ? null : request(method, uri, requestHeaders, requestBody);
        if (request == null) {
            violations.addAll(
                    errors(validator.validateResponse(path, Request.Method.valueOf(method), answered.build())));
        } else {
            for (ValidationReport.Message message : errors(validator.validate(request, answered.build()))) {
                boolean aboutRequest = message.getKey().startsWith("validation.request.");
                // a refused request may break the rules on purpose; an accepted one must not
                if (!aboutRequest || response.statusCode() < 400) {
                    violations.add(message);
                }
            }
        }
        if (!violations.isEmpty()) {
            throw new AssertionError("The exchange does not match the OpenAPI document:\n  " + method + " "
                    + pathAndQuery + (requestBody == null || requestBody.isEmpty() ? "" : " " + abbreviate(requestBody))
                    + "\n  -> " + response.statusCode() + " "
                    + response.headers().firstValue("Content-Type").orElse("")
                    + " " + abbreviate(response.body()) + "\n"
                    + violations.stream()
                            .map(m -> "  [" + m.getKey() + "] " + m.getMessage())
                            .collect(Collectors.joining("\n")));
        }
    }

    private @Nullable Route route(String method, String path) {
        // a literal path is never taken for a template's, whatever the method (/api-keys/verify is no /api-keys/{id})
        boolean literal = routes.stream().anyMatch(route -> route.template().equals(path));
        Route templated = null;
        for (Route route : routes) {
            if (route.method().equals(method) && route.pattern().matcher(path).matches()) {
                if (!route.template().contains("{")) {
                    return route;
                }
                templated = route;
            }
        }
        return literal ? null : templated;
    }

    private static @Nullable SimpleRequest request(
            String method, URI uri, Map<String, List<String>> headers, String body) {
        SimpleRequest.Builder request = new SimpleRequest.Builder(method, uri.getPath());
        headers.forEach(request::withHeader);
        if (!body.isEmpty()) {
            request.withBody(body);
        }
        if (uri.getRawQuery() != null) {
            Map<String, List<String>> query = new LinkedHashMap<>();
            for (String pair : uri.getRawQuery().split("&")) {
                String[] parts = pair.split("=", 2);
                try {
                    query.computeIfAbsent(URLDecoder.decode(parts[0], StandardCharsets.UTF_8), k -> new ArrayList<>())
                            .add(parts.length > 1 ? URLDecoder.decode(parts[1], StandardCharsets.UTF_8) : "");
                } catch (IllegalArgumentException undecodable) {
                    return null; // a query that cannot be decoded on purpose: check the answer only
                }
            }
            query.forEach(request::withQueryParam);
        }
        return request.build();
    }

    private static List<ValidationReport.Message> errors(ValidationReport report) {
        return report.getMessages().stream()
                .filter(m -> m.getLevel() == ValidationReport.Level.ERROR)
                .toList();
    }

    private static String abbreviate(String text) {
        return text.length() > 400 ? text.substring(0, 400) + "..." : text;
    }

    private static void writeCoverage() {
        if (EXERCISED.isEmpty()) {
            return;
        }
        Set<String> operations = new TreeSet<>();
        DOCUMENTED.forEach(s -> operations.add(s.substring(0, s.lastIndexOf(' '))));
        Set<String> exercisedOperations = new TreeSet<>();
        EXERCISED.forEach(s -> exercisedOperations.add(s.substring(0, s.lastIndexOf(' '))));
        Set<String> documentedExercised = new TreeSet<>(EXERCISED);
        documentedExercised.retainAll(DOCUMENTED);
        StringBuilder out = new StringBuilder();
        out.append("operations exchanged: ")
                .append(exercisedOperations.size())
                .append(" of ")
                .append(operations.size())
                .append("\ndocumented (operation, status) pairs exchanged: ")
                .append(documentedExercised.size())
                .append(" of ")
                .append(DOCUMENTED.size())
                .append("\n\n");
        new TreeSet<>(DOCUMENTED).forEach(s -> out.append(EXERCISED.contains(s) ? "  x " : "    ")
                .append(s)
                .append('\n'));
        try {
            Path target = Path.of("target");
            if (Files.isDirectory(target)) {
                Files.writeString(target.resolve("openapi-coverage.txt"), out.toString());
            }
        } catch (IOException e) {
            // the report is a courtesy; the suite's outcome does not depend on it
        }
    }
}
