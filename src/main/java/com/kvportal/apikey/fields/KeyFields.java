package com.kvportal.apikey.fields;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * The rules of the fields a customer shapes a key with, besides its name: {@code permissions}, {@code expires_at},
 * {@code metadata}, {@code external_id} and {@code allowed_ips}; each the rule of a {@link Checked} field of the create,
 * update and roll bodies.
 */
public final class KeyFields {

    static final int MAX_METADATA_PROPERTIES = 50;
    static final int MAX_METADATA_BYTES = 4096;
    public static final String EXTERNAL_ID_PATTERN = "^[A-Za-z0-9._:@/-]{1,255}$";
    private static final Pattern EXTERNAL_ID = Pattern.compile(EXTERNAL_ID_PATTERN);
    private static final JsonMapper JSON = new JsonMapper();

    static final Set<String> PERMISSIONS = Set.of("read", "write", "admin");
    static final Duration MAX_LIFETIME = Duration.ofDays(365);

    private KeyFields() {}

    /** A valid {@code expires_at} (see {@link #expiryRefusal}) as an instant in whole seconds, as the API shows it. */
    public static Instant expiry(String expiresAt) {
        return OffsetDateTime.parse(expiresAt).toInstant().truncatedTo(ChronoUnit.SECONDS);
    }

    /** {@code permissions}: absent (then {@code write}), or at least one of read, write, admin. */
    public static Optional<String> permissionsRefusal(List<?> permissions) {
        if (permissions.isEmpty()) {
            return Optional.of("must contain at least one of read, write, admin");
        }
        return permissions.stream()
                .map(String::valueOf) // a null one is unknown too
                .filter(permission -> !PERMISSIONS.contains(permission))
                .findFirst()
                .map(unknown -> "unknown permission '" + unknown + "'; allowed: read, write, admin");
    }

    /**
     * {@code expires_at}: absent (then 90 days), or an ISO 8601 timestamp with an offset, in the future, at most 365
     * days ahead of {@code now}.
     */
    public static Optional<String> expiryRefusal(String expiresAt, Instant now) {
        Instant at;
        try {
            at = expiry(expiresAt);
        } catch (DateTimeParseException e) {
            return Optional.of("must be an ISO 8601 timestamp with an offset, e.g. 2027-01-31T00:00:00Z");
        }
        if (!at.isAfter(now)) {
            return Optional.of("must be in the future");
        }
        return at.isAfter(now.plus(MAX_LIFETIME)) ? Optional.of("must be at most 365 days ahead") : Optional.empty();
    }

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
