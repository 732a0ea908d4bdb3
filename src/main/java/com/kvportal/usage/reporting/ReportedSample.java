package com.kvportal.usage.reporting;

import com.kvportal.common.web.FieldErrors;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * One sample as the storage backend reports it: the total the project stores at an instant, under an id the
 * reporter chose.
 */
public record ReportedSample(String id, UUID projectId, long bytes, Instant at) {

    public static final int MAX_SAMPLES = 1000;
    public static final int MAX_ID_LENGTH = 100;
    private static final List<String> REPORT_FIELDS = List.of("samples");
    private static final List<String> SAMPLE_FIELDS = List.of("id", "project_id", "bytes", "at");
    private static final String TIMESTAMP = "an ISO 8601 timestamp such as 2026-11-21T10:15:30Z";

    /**
     * Reads a report body {@code {samples: [{id, project_id, bytes, at}]}}, or fails with one 400
     * {@code validation_failed} naming every structural error, a field it does not know among them (then nothing is
     * stored).
     */
    public static List<ReportedSample> parseBatch(@Nullable JsonNode body) {
        FieldErrors errors = new FieldErrors();
        JsonNode samples = body == null || !body.isObject() ? null : body.get("samples");
        if (body == null || !body.isObject()) {
            errors.add("body", "must be an object {samples: [...]}").throwIfAny();
        }
        errors.unknownFields(body, "", REPORT_FIELDS);
        if (samples == null || samples.isNull()) {
            errors.add("samples", "is required: an array of 1 to " + MAX_SAMPLES + " samples")
                    .throwIfAny();
        }
        if (!samples.isArray()) {
            errors.add("samples", "must be an array of 1 to " + MAX_SAMPLES + " samples")
                    .throwIfAny();
        }
        if (samples.isEmpty() || samples.size() > MAX_SAMPLES) {
            errors.add("samples", "must hold 1 to " + MAX_SAMPLES + " samples").throwIfAny();
        }
        List<ReportedSample> parsed = new ArrayList<>(samples.size());
        for (int i = 0; i < samples.size(); i++) {
            ReportedSample sample = parse(samples.get(i), "samples[" + i + "]", errors);
            if (sample != null) {
                parsed.add(sample);
            }
        }
        errors.throwIfAny();
        return parsed;
    }

    private static @Nullable ReportedSample parse(JsonNode node, String path, FieldErrors errors) {
        if (!node.isObject()) {
            errors.add(path, "must be an object {id, project_id, bytes, at}");
            return null;
        }
        errors.unknownFields(node, path, SAMPLE_FIELDS);
        String id = id(node, path, errors);
        UUID projectId =
                parsed(node, path, "project_id", UUID::fromString, "a project id (UUID)", "a valid UUID", errors);
        Long bytes = bytes(node, path, errors);
        Instant at =
                parsed(node, path, "at", text -> OffsetDateTime.parse(text).toInstant(), TIMESTAMP, TIMESTAMP, errors);
        if (id == null || projectId == null || bytes == null || at == null) {
            return null;
        }
        // at counts to the whole second: two samples of one second are simultaneous (the one reported last wins)
        return new ReportedSample(id, projectId, bytes, at.truncatedTo(ChronoUnit.SECONDS));
    }

    private static @Nullable String id(JsonNode node, String path, FieldErrors errors) {
        JsonNode idNode = node.get("id");
        if (idNode == null || !idNode.isString()) {
            errors.add(path + ".id", "is required: a string of 1 to " + MAX_ID_LENGTH + " characters");
            return null;
        }
        String id = idNode.stringValue();
        int length = id.codePointCount(0, id.length());
        if (length < 1 || length > MAX_ID_LENGTH) {
            errors.add(path + ".id", "must be 1 to " + MAX_ID_LENGTH + " characters");
            return null;
        }
        if (!isStorableText(id)) {
            errors.add(path + ".id", "must be valid Unicode without NUL");
            return null;
        }
        return id;
    }

    private static @Nullable Long bytes(JsonNode node, String path, FieldErrors errors) {
        JsonNode bytesNode = node.get("bytes");
        if (bytesNode == null || !bytesNode.isIntegralNumber() || !bytesNode.canConvertToLong()) {
            errors.add(path + ".bytes", "is required: an integer of at least 0");
            return null;
        }
        long bytes = bytesNode.longValue();
        if (bytes < 0) {
            errors.add(path + ".bytes", "must be at least 0");
            return null;
        }
        return bytes;
    }

    /**
     * The string at {@code name} parsed, or null with the error recorded: "is required: {@code what}" when it is
     * absent or no string, "is not {@code valid}" when it does not parse.
     */
    private static <T> @Nullable T parsed(
            JsonNode node,
            String path,
            String name,
            Function<String, T> parse,
            String what,
            String valid,
            FieldErrors errors) {
        JsonNode value = node.get(name);
        String field = path + "." + name;
        if (value == null || !value.isString()) {
            errors.add(field, "is required: " + what);
            return null;
        }
        try {
            return parse.apply(value.stringValue());
        } catch (IllegalArgumentException | DateTimeParseException e) {
            errors.add(field, "is not " + valid);
            return null;
        }
    }

    /** No NUL and no unpaired surrogate: text that PostgreSQL stores as given. */
    private static boolean isStorableText(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == 0) {
                return false;
            }
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }
}
