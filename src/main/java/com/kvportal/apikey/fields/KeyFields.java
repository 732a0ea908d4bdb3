package com.kvportal.apikey.fields;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * The rules of the fields a customer shapes a key with, besides its name, permissions and expiry: {@code metadata},
 * {@code external_id} and {@code allowed_ips}; each the rule of a {@link Checked} field of the create and update
 * bodies.
 */
public final class KeyFields {

    static final int MAX_METADATA_PROPERTIES = 50;
    static final int MAX_METADATA_BYTES = 4096;
    public static final String EXTERNAL_ID_PATTERN = "^[A-Za-z0-9._:@/-]{1,255}$";
    private static final Pattern EXTERNAL_ID = Pattern.compile(EXTERNAL_ID_PATTERN);
    private static final JsonMapper JSON = new JsonMapper();

    private KeyFields() {}

    /** The metadata as JSON, e.g. to store it or to measure it. */
    public static String json(Map<String, @Nullable Object> metadata) {
        return JSON.writeValueAsString(metadata);
    }

    /** Metadata read back from its JSON. */
    @SuppressWarnings("unchecked")
    static Map<String, @Nullable Object> metadata(String json) {
        return copy(JSON.readValue(json, Map.class));
    }

    /** An unmodifiable copy in the order given (a value may be null, which {@link Map#copyOf} refuses). */
    public static Map<String, @Nullable Object> copy(Map<String, @Nullable Object> metadata) {
        return metadata.isEmpty()
                ? Map.of()
                : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(metadata));
    }

    /**
     * {@code metadata}: an object of at most 50 properties whose values are strings, numbers, booleans or null; at most
     * 4 KiB as JSON.
     */
    @SuppressWarnings("unchecked")
    static Optional<String> metadataRefusal(Map<?, ?> metadata) {
        if (metadata.size() > MAX_METADATA_PROPERTIES) {
            return Optional.of(
                    "must have at most " + MAX_METADATA_PROPERTIES + " properties; it has " + metadata.size());
        }
        for (Map.Entry<?, ?> entry : metadata.entrySet()) {
            Object value = entry.getValue();
            if (value instanceof Map || value instanceof List) {
                return Optional.of("property '" + entry.getKey()
                        + "' must be a string, number, boolean or null, not an object or array");
            }
        }
        int bytes = json((Map<String, @Nullable Object>) metadata).getBytes(StandardCharsets.UTF_8).length;
        return bytes > MAX_METADATA_BYTES
                ? Optional.of("must be at most " + MAX_METADATA_BYTES + " bytes as JSON; it is " + bytes)
                : Optional.empty();
    }

    /** {@code external_id}: 1-255 characters of A-Z a-z 0-9 . _ : @ / - (the customer's own name for the key's user). */
    static Optional<String> externalIdRefusal(Object externalId) {
        return externalId instanceof String text && EXTERNAL_ID.matcher(text).matches()
                ? Optional.empty()
                : Optional.of("must be 1-255 characters of A-Z a-z 0-9 . _ : @ / - (or null)");
    }

    /** {@code allowed_ips}: null (from anywhere) or 1-100 IPv4 or IPv6 addresses or CIDR blocks (see {@link IpBlock}). */
    static Optional<String> allowedIpsRefusal(List<?> entries) {
        if (entries.isEmpty() || entries.size() > AllowedIps.MAX_ENTRIES) {
            return Optional.of("must hold 1-" + AllowedIps.MAX_ENTRIES + " addresses or CIDR blocks (it holds "
                    + entries.size() + "); null allows every address");
        }
        for (Object entry : entries) {
            if (entry == null) {
                return Optional.of("must not hold null: send addresses or CIDR blocks");
            }
            Optional<String> refusal = IpBlock.refusal((String) entry);
            if (refusal.isPresent()) {
                return refusal;
            }
        }
        return Optional.empty();
    }
}
