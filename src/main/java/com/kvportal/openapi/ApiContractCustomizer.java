package com.kvportal.openapi;

import com.kvportal.common.web.CommonProblem;
import com.kvportal.common.web.ProblemCode;
import com.kvportal.security.ApiContract;
import com.kvportal.security.Credential;
import com.kvportal.security.Permission;
import com.kvportal.security.Role;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.SpecVersion;
import io.swagger.v3.oas.models.examples.Example;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.parameters.RequestBody;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springdoc.core.customizers.GlobalOperationComponentsCustomizer;
import org.springdoc.core.utils.SpringDocAnnotationsUtils;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.method.HandlerMethod;

/**
 * Applies an operation's {@link ApiContract}: its summary and description ({@link OperationTexts}), its body when
 * the handler reads it itself ({@link JsonBody}), its security, its success response as {@code application/json},
 * and a problem response per status with a schema whose {@code code} lists exactly the operation's codes.
 */
@RequiredArgsConstructor
final class ApiContractCustomizer implements GlobalOperationComponentsCustomizer {

    static final String PROBLEM_JSON = "application/problem+json";
    static final String JSON = "application/json";
    static final String EVENT_STREAM = "text/event-stream";
    /** The document's security schemes, one per {@link Credential} (a portal call: the session or an API key). */
    static final String SESSION_SCHEME = "session";

    static final String XSRF_SCHEME = "xsrfToken";
    static final String API_KEY_SCHEME = "apiKey";
    static final String USAGE_TOKEN_SCHEME = "usageToken";
    static final String STRIPE_SIGNATURE_SCHEME = "stripeSignature";
    static final String GITHUB_SIGNATURE_SCHEME = "githubSignature";
    private static final String TYPE_BASE = "https://kv-portal.dev/problems/";

    private final OperationTexts texts;

    /** Springdoc calls the variant with the components; this one is not used. */
    @Override
    public Operation customize(Operation operation, HandlerMethod handler) {
        throw new UnsupportedOperationException("needs the document's components");
    }

    @Override
    public Operation customize(Operation operation, Components components, HandlerMethod handler) {
        String where = handler.getBeanType().getSimpleName() + "."
                + handler.getMethod().getName();
        io.swagger.v3.oas.annotations.Operation described =
                handler.getMethodAnnotation(io.swagger.v3.oas.annotations.Operation.class);
        if (described != null
                && !(described.operationId().isEmpty()
                        && described.summary().isEmpty()
                        && described.description().isEmpty())) {
            throw new IllegalStateException(where + ": its operationId is the method's name, and its summary and"
                    + " description live in " + OperationTexts.RESOURCE + ", not in @Operation");
        }
        ApiContract contract = handler.getMethodAnnotation(ApiContract.class);
        if (contract == null) {
            throw new IllegalStateException(where + " is not documented: give it @ApiContract and an entry in "
                    + OperationTexts.RESOURCE + " (see com.kvportal.openapi)");
        }
        texts.describe(operation, where);
        describeBody(operation, components, handler);
        boolean changesState = changesState(handler);
        describeRoles(operation, contract, where);
        operation.setSecurity(security(contract.credentials(), changesState));
        operation.setResponses(responses(operation, components, handler, contract, changesState, where));
        return operation;
    }

    /** The body of a {@link JsonBody} operation, resolved as springdoc resolves a body parameter's type. */
    private static void describeBody(Operation operation, Components components, HandlerMethod handler) {
        JsonBody body = handler.getMethodAnnotation(JsonBody.class);
        if (body == null) {
            return;
        }
        Type type = body.list()
                ? ResolvableType.forClassWithGenerics(List.class, body.value()).getType()
                : body.value();
        Schema<?> schema = SpringDocAnnotationsUtils.extractSchema(components, type, null, null, SpecVersion.V30);
        operation.setRequestBody(new RequestBody()
                .required(true)
                .content(new Content().addMediaType(JSON, new MediaType().schema(schema))));
    }

    /**
     * States who may call a portal operation: the roles of its {@link Permission}, in the description and as {@code
     * x-roles}. A portal operation must declare exactly one permission; any other operation none.
     */
    private static void describeRoles(Operation operation, ApiContract contract, String where) {
        boolean portal = Arrays.asList(contract.credentials()).contains(Credential.PORTAL);
        if (portal != (contract.permission().length == 1) || contract.permission().length > 1) {
            throw new IllegalStateException(where + ": a Credential.PORTAL operation declares exactly one permission"
                    + " (@ApiContract(permission = Permission.…)), any other operation none");
        }
        if (!portal) {
            return;
        }
        Permission permission = contract.permission()[0];
        String roles = permission.needsMembership()
                ? "Roles: " + permission.roles().stream().map(Role::wire).collect(Collectors.joining(", ")) + "."
                : "Roles: any signed-in customer (no membership in the current organization needed).";
        operation.setDescription(operation.getDescription() + "\n\n" + roles);
        if (permission.needsMembership()) {
            operation.addExtension(
                    "x-roles", permission.roles().stream().map(Role::wire).toList());
        }
    }

    private static List<SecurityRequirement> security(Credential[] credentials, boolean changesState) {
        List<SecurityRequirement> requirements = new ArrayList<>();
        for (Credential credential : credentials) {
            switch (credential) {
                case PORTAL -> {
                    SecurityRequirement session = new SecurityRequirement().addList(SESSION_SCHEME);
                    if (changesState) {
                        session.addList(XSRF_SCHEME);
                    }
                    requirements.add(session);
                    requirements.add(new SecurityRequirement().addList(API_KEY_SCHEME));
                }
                case API_KEY -> requirements.add(new SecurityRequirement().addList(API_KEY_SCHEME));
                case USAGE_TOKEN -> requirements.add(new SecurityRequirement().addList(USAGE_TOKEN_SCHEME));
                case STRIPE_SIGNATURE -> requirements.add(new SecurityRequirement().addList(STRIPE_SIGNATURE_SCHEME));
                case GITHUB_SIGNATURE -> requirements.add(new SecurityRequirement().addList(GITHUB_SIGNATURE_SCHEME));
            }
        }
        return requirements;
    }

    private static ApiResponses responses(
            Operation operation,
            Components components,
            HandlerMethod handler,
            ApiContract contract,
            boolean changesState,
            String where) {
        ApiResponses responses = new ApiResponses();
        responses.addApiResponse(
                String.valueOf(contract.success().value()), success(operation, handler, contract, where));

        List<ProblemCode> problems = problems(operation, handler, contract, changesState);
        String schemaName = capitalize(operation.getOperationId()) + "Problem";
        components.addSchemas(schemaName, problemSchema(operation.getOperationId(), problems));
        Map<Integer, List<ProblemCode.Definition>> byStatus = new TreeMap<>();
        problems.forEach(p -> byStatus.computeIfAbsent(p.status().value(), s -> new ArrayList<>())
                .add(p.getDefinition()));
        byStatus.forEach((status, entries) ->
                responses.addApiResponse(String.valueOf(status), problemResponse(schemaName, entries)));
        return responses;
    }

    private static ApiResponse success(Operation operation, HandlerMethod handler, ApiContract contract, String where) {
        HttpStatus http = contract.success();
        int status = http.value();
        ApiResponse response = new ApiResponse()
                .description(
                        contract.successDescription().isBlank()
                                ? http.getReasonPhrase()
                                : contract.successDescription());
        boolean bodiless = status == 204 || http.is3xxRedirection();
        @Nullable Schema<?> schema = generatedSchema(operation.getResponses());
        if (streamsEvents(handler)) {
            // a Server-Sent Events stream: text whose format the operation's description gives
            response.content(new Content().addMediaType(EVENT_STREAM, new MediaType().schema(new StringSchema())));
        } else if (!bodiless) {
            if (schema == null) {
                throw new IllegalStateException(where + " answers " + status + " without a body type");
            }
            response.content(new Content().addMediaType(JSON, new MediaType().schema(schema)));
        }
        if (http.is3xxRedirection()) {
            response.addHeaderObject(
                    "Location", new Header().description("Where to go next.").schema(new StringSchema()));
        }
        return response;
    }

    /** Whether the handler answers a {@code text/event-stream} (its mapping produces only that). */
    private static boolean streamsEvents(HandlerMethod handler) {
        RequestMapping mapping = AnnotatedElementUtils.findMergedAnnotation(handler.getMethod(), RequestMapping.class);
        return mapping != null && List.of(mapping.produces()).equals(List.of(EVENT_STREAM));
    }

    /** The schema springdoc derived from the method's return type, whatever status and media type it put it under. */
    private static @Nullable Schema<?> generatedSchema(@Nullable ApiResponses generated) {
        if (generated == null) {
            return null;
        }
        for (ApiResponse response : generated.values()) {
            if (response.getContent() != null) {
                for (MediaType media : response.getContent().values()) {
                    if (media.getSchema() != null) {
                        return media.getSchema();
                    }
                }
            }
        }
        return null;
    }

    private static List<ProblemCode> problems(
            Operation operation, HandlerMethod handler, ApiContract contract, boolean changesState) {
        Set<ProblemCode> problems = new LinkedHashSet<>();
        if (operation.getRequestBody() != null
                && operation.getRequestBody().getContent() != null
                && operation.getRequestBody().getContent().containsKey(JSON)) {
            problems.addAll(List.of(
                    CommonProblem.MALFORMED_JSON,
                    CommonProblem.VALIDATION_FAILED,
                    CommonProblem.PAYLOAD_TOO_LARGE,
                    CommonProblem.UNSUPPORTED_MEDIA_TYPE));
        }
        if (operation.getParameters() != null) {
            for (Parameter parameter : operation.getParameters()) {
                Schema<?> schema = parameter.getSchema();
                if (schema != null && (schema.getFormat() != null || !"string".equals(schema.getType()))) {
                    problems.add(CommonProblem.VALIDATION_FAILED);
                }
            }
        }
        for (Credential credential : contract.credentials()) {
            problems.addAll(credential.impliedProblems());
            if (credential == Credential.PORTAL && changesState) {
                problems.add(CommonProblem.CSRF_FAILED);
            }
            if (credential == Credential.PORTAL) {
                // a role the permission does not list; with an API key, on any portal call, a creator who no longer
                // runs the organization
                problems.add(CommonProblem.INSUFFICIENT_ROLE);
            }
            if (credential == Credential.PORTAL && contract.verifiedEmail()) {
                problems.add(CommonProblem.EMAIL_UNVERIFIED);
            }
        }
        problems.add(CommonProblem.MALFORMED_PARAMETERS);
        problems.add(CommonProblem.BAD_REQUEST);
        problems.add(CommonProblem.DATABASE_UNAVAILABLE);
        problems.addAll(ProblemCatalogue.declaredBy(handler.getMethod()));
        return List.copyOf(problems);
    }

    private static Schema<?> problemSchema(String operationId, List<ProblemCode> problems) {
        List<String> codes =
                problems.stream().map(ProblemCode::code).distinct().sorted().toList();
        ObjectSchema schema = new ObjectSchema();
        schema.description("A problem document (RFC 9457) that " + operationId + " answers.");
        schema.addProperty("type", new StringSchema().format("uri").description(TYPE_BASE + "{code}"));
        schema.addProperty("title", new StringSchema().description("The HTTP status' reason phrase."));
        schema.addProperty("status", new IntegerSchema().description("The HTTP status."));
        schema.addProperty("detail", new StringSchema().description("What happened, for a person."));
        schema.addProperty(
                "instance", new StringSchema().format("uri-reference").description("The request path."));
        StringSchema code = new StringSchema();
        code.setEnum(codes);
        code.description("The stable code of the outcome.");
        schema.addProperty("code", code);
        if (codes.contains(CommonProblem.VALIDATION_FAILED.code())) {
            Schema<Object> fieldError = new ObjectSchema()
                    .addProperty("field", new StringSchema().description("The field, in snake_case."))
                    .addProperty("message", new StringSchema().description("What is wrong with it."));
            fieldError.setRequired(List.of("field", "message"));
            schema.addProperty(
                    "errors",
                    new ArraySchema()
                            .items(fieldError)
                            .description("With validation_failed: every invalid field of the request."));
        }
        for (ProblemCode problem : problems) {
            problem.getDefinition()
                    .members()
                    .forEach((name, description) -> schema.addProperty(
                            name, new Schema<>().description("With " + problem.code() + ": " + description)));
        }
        schema.setRequired(List.of("type", "title", "status", "detail", "code"));
        return schema;
    }

    private static ApiResponse problemResponse(String schemaName, List<ProblemCode.Definition> entries) {
        MediaType media = new MediaType().schema(new Schema<>().$ref("#/components/schemas/" + schemaName));
        Map<String, Header> headers = new LinkedHashMap<>();
        for (ProblemCode.Definition entry : entries) {
            media.addExamples(
                    entry.code(), new Example().summary(entry.meaning()).value(example(entry)));
            entry.exampleHeaders()
                    .forEach((name, value) -> headers.putIfAbsent(
                            name,
                            new Header().description("For example: " + value).schema(new StringSchema())));
        }
        String description = entries.size() == 1
                ? "`" + entries.get(0).code() + "`: " + entries.get(0).meaning()
                : entries.stream()
                        .map(e -> "- `" + e.code() + "`: " + e.meaning())
                        .collect(Collectors.joining("\n"));
        ApiResponse response =
                new ApiResponse().description(description).content(new Content().addMediaType(PROBLEM_JSON, media));
        if (!headers.isEmpty()) {
            response.setHeaders(headers);
        }
        return response;
    }

    private static Map<String, Object> example(ProblemCode.Definition entry) {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("type", TYPE_BASE + entry.code());
        value.put("title", entry.status().getReasonPhrase());
        value.put("status", entry.status().value());
        value.put("detail", entry.exampleDetail());
        value.put("code", entry.code());
        if (entry.code().equals(CommonProblem.VALIDATION_FAILED.code())) {
            value.put("errors", List.of(Map.of("field", "name", "message", "must be at most 100 characters")));
        }
        return value;
    }

    private static String capitalize(String id) {
        return Character.toUpperCase(id.charAt(0)) + id.substring(1);
    }

    /** Every method but GET and HEAD changes state (and, with a session, needs the CSRF header). */
    private static boolean changesState(HandlerMethod handler) {
        RequestMapping mapping = AnnotatedElementUtils.findMergedAnnotation(handler.getMethod(), RequestMapping.class);
        if (mapping == null || mapping.method().length == 0) {
            return true;
        }
        return !Arrays.stream(mapping.method()).allMatch(m -> m == RequestMethod.GET || m == RequestMethod.HEAD);
    }
}
