package com.kvportal.openapi;

import com.kvportal.common.AppBaseUrl;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.servers.Server;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springdoc.core.customizers.GlobalOpenApiCustomizer;

/**
 * The last touches on the whole document: the server is {@code APP_BASE_URL}; every field of a response is
 * required (the API always writes it, null where {@code nullable}); tags are the features', never a controller's;
 * every text of {@link OperationTexts} belongs to an operation.
 */
@RequiredArgsConstructor
final class DocumentCustomizer implements GlobalOpenApiCustomizer {

    private static final String REF_PREFIX = "#/components/schemas/";

    private final AppBaseUrl baseUrl;
    private final OperationTexts texts;

    @Override
    public void customise(OpenAPI openApi) {
        ProblemCatalogue.entries(); // fails the document when two problem codes share a code and a status
        openApi.setServers(List.of(new Server().url(baseUrl.get()).description("APP_BASE_URL")));
        Set<String> operationIds = new HashSet<>();
        if (openApi.getPaths() != null) {
            openApi.getPaths().values().forEach(item -> item.readOperations()
                    .forEach(operation -> operationIds.add(operation.getOperationId())));
        }
        texts.requireExactly(operationIds);
        Map<String, Schema> schemas = openApi.getComponents() == null
                ? Map.of()
                : openApi.getComponents().getSchemas();
        if (schemas == null || openApi.getPaths() == null) {
            return;
        }
        List<Schema<?>> requestRoots = new ArrayList<>();
        List<Schema<?>> responseRoots = new ArrayList<>();
        openApi.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, operation) -> {
            checkTags(operation, method + " " + path);
            if (operation.getRequestBody() != null) {
                collect(operation.getRequestBody().getContent(), requestRoots);
            }
            if (operation.getResponses() != null) {
                operation.getResponses().values().forEach(response -> collect(response.getContent(), responseRoots));
            }
        }));
        schemas.values().forEach(DocumentCustomizer::freeFormMaps);
        Set<String> inRequests = reachable(requestRoots, schemas);
        for (String name : reachable(responseRoots, schemas)) {
            Schema<?> schema = schemas.get(name);
            if (!inRequests.contains(name) && schema.getProperties() != null && schema.getRequired() == null) {
                schema.setRequired(List.copyOf(schema.getProperties().keySet()));
            }
        }
    }

    /** A {@code Map<String, Object>} holds any JSON values, not only objects, as swagger-core would have it. */
    private static void freeFormMaps(Schema<?> schema) {
        if (schema.getProperties() == null) {
            return;
        }
        schema.getProperties().values().forEach(property -> {
            if (property.getAdditionalProperties() instanceof Schema<?> values
                    && "object".equals(values.getType())
                    && values.getProperties() == null
                    && values.get$ref() == null) {
                property.setAdditionalProperties(true);
            }
        });
    }

    private static void checkTags(Operation operation, String where) {
        if (operation.getTags() == null || operation.getTags().stream().anyMatch(tag -> tag.endsWith("-controller"))) {
            throw new IllegalStateException(
                    where + " has no feature tag: put @Tag(name, description) on its controller");
        }
    }

    private static void collect(@Nullable Content content, List<Schema<?>> roots) {
        if (content != null) {
            content.values().forEach(media -> {
                if (media.getSchema() != null) {
                    roots.add(media.getSchema());
                }
            });
        }
    }

    /** The names of the component schemas that these schemas refer to, directly or through others. */
    private static Set<String> reachable(List<Schema<?>> roots, Map<String, Schema> schemas) {
        Set<String> names = new HashSet<>();
        Deque<Schema<?>> work = new ArrayDeque<>(roots);
        while (!work.isEmpty()) {
            Schema<?> schema = work.pop();
            if (schema.get$ref() != null) {
                String name = schema.get$ref().substring(REF_PREFIX.length());
                if (names.add(name) && schemas.get(name) != null) {
                    work.push(schemas.get(name));
                }
            }
            if (schema.getProperties() != null) {
                schema.getProperties().values().forEach(work::push);
            }
            if (schema.getItems() != null) {
                work.push(schema.getItems());
            }
            if (schema.getAdditionalProperties() instanceof Schema<?> additional) {
                work.push(additional);
            }
            for (List<Schema> composed :
                    List.of(nonNull(schema.getAllOf()), nonNull(schema.getOneOf()), nonNull(schema.getAnyOf()))) {
                composed.forEach(work::push);
            }
        }
        return names;
    }

    private static List<Schema> nonNull(@Nullable List<Schema> schemas) {
        return schemas == null ? List.of() : schemas;
    }
}
