package com.kvportal.openapi;

import io.swagger.v3.oas.models.Operation;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.core.io.ClassPathResource;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The summary and description of every operation, read once from {@value #RESOURCE}, keyed by operationId (springdoc's
 * default: the handler method's name). An operation without an entry fails the document, and so does an entry
 * without an operation ({@link #requireExactly}); a malformed file fails the start.
 */
final class OperationTexts {

    static final String RESOURCE = "openapi/operations.yaml";

    /** What the document shows of an operation: a title and the rules a caller must know, in CommonMark. */
    record Texts(String summary, String description) {}

    private final Map<String, Texts> byOperationId;

    private OperationTexts(Map<String, Texts> byOperationId) {
        this.byOperationId = byOperationId;
    }

    static OperationTexts load() {
        try (InputStream in = new ClassPathResource(RESOURCE).getInputStream()) {
            return parse(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }

    /** Reads the entries; a key twice, a field other than summary and description, or a blank one is refused. */
    static OperationTexts parse(InputStream in) {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        Object root = new Yaml(new SafeConstructor(options)).load(in);
        if (!(root instanceof Map<?, ?> entries)) {
            throw new IllegalStateException(RESOURCE + " is no map of operationId to {summary, description}");
        }
        Map<String, Texts> byOperationId = new LinkedHashMap<>();
        entries.forEach((operationId, texts) -> {
            if (!(texts instanceof Map<?, ?> fields)
                    || !fields.keySet().equals(Set.of("summary", "description"))
                    || !(fields.get("summary") instanceof String summary && !summary.isBlank())
                    || !(fields.get("description") instanceof String description && !description.isBlank())) {
                throw new IllegalStateException(
                        RESOURCE + ": " + operationId + " needs a summary and a description (text), nothing else");
            }
            byOperationId.put(String.valueOf(operationId), new Texts(summary, description));
        });
        return new OperationTexts(byOperationId);
    }

    /** Gives the operation its summary and description; one without an entry fails. */
    void describe(Operation operation, String where) {
        Texts texts = byOperationId.get(operation.getOperationId());
        if (texts == null) {
            throw new IllegalStateException(where + " (operationId " + operation.getOperationId() + ") has no entry in "
                    + RESOURCE + ": add its summary and description there");
        }
        operation.setSummary(texts.summary());
        operation.setDescription(texts.description());
    }

    /** Fails unless the document's operations are exactly the entries: an entry no operation has is a stale text. */
    void requireExactly(Set<String> operationIds) {
        Set<String> stale = new TreeSet<>(byOperationId.keySet());
        stale.removeAll(operationIds);
        if (!stale.isEmpty()) {
            throw new IllegalStateException(RESOURCE + " describes operations the API does not have: " + stale
                    + " (an operationId is its handler method's name)");
        }
    }

    Set<String> operationIds() {
        return byOperationId.keySet();
    }
}
