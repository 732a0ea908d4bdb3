package com.kvportal.apikey.fields;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.TYPE_USE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * The rules of the fields a customer shapes a key with, besides its name, permissions and expiry: {@code metadata},
 * {@code external_id} and {@code allowed_ips}; each a constraint of the create and update bodies, so that all errors
 * of a request are reported at once, each naming its field.
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
     * The value an update sent: an update's {@code Optional} (empty for null, which clears the field), or a create's
     * plain value. Bean Validation does not unwrap an {@code Optional} of a list for a list's validator.
     */
    private static @Nullable Object unwrapped(@Nullable Object sent) {
        return sent instanceof Optional<?> optional ? optional.orElse(null) : sent;
    }

    /** Fails the field with a message of its own; the value given is a parameter, never part of the template. */
    private static boolean refuse(ConstraintValidatorContext context, String message, String value) {
        context.disableDefaultConstraintViolation();
        context.unwrap(HibernateConstraintValidatorContext.class)
                .addMessageParameter("value", value)
                .buildConstraintViolationWithTemplate(message.replace("%s", "{value}"))
                .addConstraintViolation();
        return false;
    }

    /** An object of at most 50 properties whose values are strings, numbers, booleans or null; at most 4 KiB. */
    @Retention(RUNTIME)
    @Target(FIELD)
    @Constraint(validatedBy = Metadata.Validator.class)
    public @interface Metadata {

        String message() default "must be an object of at most 50 properties, each a string, number, boolean or null";

        Class<?>[] groups() default {};

        Class<? extends Payload>[] payload() default {};

        final class Validator implements ConstraintValidator<Metadata, Map<String, @Nullable Object>> {
            @Override
            public boolean isValid(
                    @Nullable Map<String, @Nullable Object> metadata, ConstraintValidatorContext context) {
                if (metadata == null) {
                    return true;
                }
                if (metadata.size() > MAX_METADATA_PROPERTIES) {
                    return refuse(
                            context,
                            "must have at most " + MAX_METADATA_PROPERTIES + " properties; it has %s",
                            Integer.toString(metadata.size()));
                }
                for (Map.Entry<String, @Nullable Object> entry : metadata.entrySet()) {
                    Object value = entry.getValue();
                    if (value instanceof Map || value instanceof List) {
                        return refuse(
                                context,
                                "property '%s' must be a string, number, boolean or null, not an object or array",
                                entry.getKey());
                    }
                }
                int bytes = json(metadata).getBytes(StandardCharsets.UTF_8).length;
                if (bytes > MAX_METADATA_BYTES) {
                    return refuse(
                            context,
                            "must be at most " + MAX_METADATA_BYTES + " bytes as JSON; it is %s",
                            Integer.toString(bytes));
                }
                return true;
            }
        }
    }

    /** Null, or 1-255 characters of A-Z a-z 0-9 . _ : @ / - (the customer's own name for whoever uses the key). */
    @Retention(RUNTIME)
    @Target({FIELD, TYPE_USE})
    @Constraint(validatedBy = ExternalId.Validator.class)
    public @interface ExternalId {

        String message() default "must be 1-255 characters of A-Z a-z 0-9 . _ : @ / - (or null)";

        Class<?>[] groups() default {};

        Class<? extends Payload>[] payload() default {};

        final class Validator implements ConstraintValidator<ExternalId, Object> {
            @Override
            public boolean isValid(@Nullable Object sent, ConstraintValidatorContext context) {
                Object externalId = unwrapped(sent);
                return externalId == null
                        || (externalId instanceof String text
                                && EXTERNAL_ID.matcher(text).matches());
            }
        }
    }

    /** Null (from anywhere) or 1-100 IPv4 or IPv6 addresses or CIDR blocks (see {@link IpBlock}). */
    @Retention(RUNTIME)
    @Target({FIELD, TYPE_USE})
    @Constraint(validatedBy = AllowedIpList.Validator.class)
    public @interface AllowedIpList {

        String message() default "must be null or 1-100 IPv4 or IPv6 addresses or CIDR blocks";

        Class<?>[] groups() default {};

        Class<? extends Payload>[] payload() default {};

        final class Validator implements ConstraintValidator<AllowedIpList, Object> {
            @Override
            @SuppressWarnings("unchecked")
            public boolean isValid(@Nullable Object sent, ConstraintValidatorContext context) {
                if (!(unwrapped(sent) instanceof List<?> list)) {
                    return true;
                }
                List<String> entries = (List<String>) list;
                if (entries.isEmpty() || entries.size() > AllowedIps.MAX_ENTRIES) {
                    return refuse(
                            context,
                            "must hold 1-" + AllowedIps.MAX_ENTRIES
                                    + " addresses or CIDR blocks (it holds %s); null allows every address",
                            Integer.toString(entries.size()));
                }
                for (String entry : entries) {
                    if (entry == null) {
                        return refuse(context, "must not hold null: %s", "send addresses or CIDR blocks");
                    }
                    Optional<String> refusal = IpBlock.refusal(entry);
                    if (refusal.isPresent()) {
                        return refuse(context, "%s", refusal.get());
                    }
                }
                return true;
            }
        }
    }
}
