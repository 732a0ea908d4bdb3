package com.kvportal.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The committed copy of the OpenAPI document ({@code src/test/resources/openapi/kv-portal.json}), from which the
 * build generates a client: pretty-printed with sorted keys, the server's address replaced by the default one, so
 * that a change shows as a small diff and a merge conflict in it is settled by regenerating it.
 */
public final class OpenApiSnapshot {

    public static final Path FILE = Path.of("src", "test", "resources", "openapi", "kv-portal.json");

    /** The one command that rewrites the snapshot from the service as it is. */
    public static final String REGENERATE = "./mvnw -o test -Dtest=OpenApiDocumentTest -Dopenapi.snapshot=write";

    private static final String DEFAULT_SERVER = "http://localhost:8080";

    private static final JsonMapper PRETTY =
            JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private OpenApiSnapshot() {}

    /** The served document in the snapshot's form. */
    public static String canonical(String served) {
        ObjectNode document = (ObjectNode) sorted(Api.JSON.readTree(served));
        ArrayNode servers = document.putArray("servers");
        servers.addObject().put("description", "APP_BASE_URL").put("url", DEFAULT_SERVER);
        return PRETTY.writeValueAsString(sorted(document)) + "\n";
    }

    public static boolean writeRequested() {
        return "write".equals(System.getProperty("openapi.snapshot"));
    }

    public static String read() {
        try {
            return Files.readString(FILE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static void write(String canonical) {
        try {
            Files.createDirectories(FILE.getParent());
            Files.writeString(FILE, canonical);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode sorted(JsonNode node) {
        if (node.isObject()) {
            ObjectNode sorted = JsonNodeFactory.instance.objectNode();
            List<Map.Entry<String, JsonNode>> entries = new ArrayList<>(node.properties());
            entries.sort(Map.Entry.comparingByKey());
            entries.forEach(e -> sorted.set(e.getKey(), sorted(e.getValue())));
            return sorted;
        }
        if (node.isArray()) {
            ArrayNode array = JsonNodeFactory.instance.arrayNode();
            node.forEach(element -> array.add(sorted(element)));
            return array;
        }
        return node;
    }
}
