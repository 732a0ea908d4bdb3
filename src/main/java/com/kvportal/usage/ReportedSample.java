package com.kvportal.usage;

import com.kvportal.common.web.FieldErrors;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * One sample as the storage backend reports it: the total the project stores at an instant, under an id the
 * reporter chose.
 */
record ReportedSample(String id, UUID projectId, long bytes, Instant at) {

    static final int MAX_SAMPLES = 1000;
    static final int MAX_ID_LENGTH = 100;

    /**
     * Reads a report body {@code {samples: [{id, project_id, bytes, at}]}}, or fails with one 400
     * {@code validation_failed} naming every structural error (then nothing is stored).
     */
    static List<ReportedSample> parseBatch(@Nullable JsonNode body) {
        FieldErrors errors = new FieldErrors();
        JsonNode samples = body == null || !body.isObject() ? null : body.get("samples");
        if (body == null || !body.isObject()) {
            errors.add("body", "must be an object {samples: [...]}").throwIfAny();
        }
        if (samples == null || !samples.isArray()) {
            errors.add("samples", "is required: an array of 1 to " + MAX_SAMPLES + " samples")
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
        boolean valid = true;
        String id = null;
        JsonNode idNode = node.get("id");
        if (idNode == null || !idNode.isString()) {
            valid = false;
            errors.add(path + ".id", "is required: a string of 1 to " + MAX_ID_LENGTH + " characters");
        } else {
            id = idNode.stringValue();
            int length = id.codePointCount(0, id.length());
            if (length < 1 || length > MAX_ID_LENGTH) {
                valid = false;
                errors.add(path + ".id", "must be 1 to " + MAX_ID_LENGTH + " characters");
            } else if (!isStorableText(id)) {
                valid = false;
                errors.add(path + ".id", "must be valid Unicode without NUL");
            }
        }
        UUID projectId = null;
        JsonNode projectNode = node.get("project_id");
        if (projectNode == null || !projectNode.isString()) {
            valid = false;
            errors.add(path + ".project_id", "is required: a project id (UUID)");
        } else {
            try {
                projectId = UUID.fromString(projectNode.stringValue());
            } catch (IllegalArgumentException e) {
                valid = false;
                errors.add(path + ".project_id", "is not a valid UUID");
            }
        }
        long bytes = -1;
        JsonNode bytesNode = node.get("bytes");
        if (bytesNode == null || !bytesNode.isIntegralNumber() || !bytesNode.canConvertToLong()) {
            valid = false;
            errors.add(path + ".bytes", "is required: an integer of at least 0");
        } else if ((bytes = bytesNode.longValue()) < 0) {
            valid = false;
            errors.add(path + ".bytes", "must be at least 0");
        }
        Instant at = null;
        JsonNode atNode = node.get("at");
        if (atNode == null || !atNode.isString()) {
            valid = false;
            errors.add(path + ".at", "is required: an ISO 8601 timestamp such as 2026-11-21T10:15:30Z");
        } else {
            try {
                at = OffsetDateTime.parse(atNode.stringValue()).toInstant();
            } catch (DateTimeParseException e) {
                valid = false;
                errors.add(path + ".at", "is not an ISO 8601 timestamp such as 2026-11-21T10:15:30Z");
            }
        }
        if (!valid || id == null || projectId == null || at == null) {
            return null;
        }
        return new ReportedSample(id, projectId, bytes, at);
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
