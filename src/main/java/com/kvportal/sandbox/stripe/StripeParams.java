package com.kvportal.sandbox.stripe;

import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The parameters of a Stripe API call in Stripe's form encoding: flat keys with brackets for nesting
 * ({@code line_items[0][price]}, {@code metadata[organization_id]}, {@code expand[]} or {@code expand[0]}).
 */
public final class StripeParams {

    static final int MAX_METADATA_KEYS = 50;
    static final int MAX_METADATA_KEY_LENGTH = 40;
    static final int MAX_METADATA_VALUE_LENGTH = 500;
    private static final int MAX_URL_LENGTH = 5000;
    private static final int MAX_TEXT_LENGTH = 500;
    private static final int MAX_DECIMAL_PLACES = 12;
    private static final Pattern LIST_ITEM = Pattern.compile("\\[(\\d*)]$");
    /** Parameters every call accepts. */
    private static final Set<String> COMMON = Set.of("expand");

    private final Map<String, String> values;

    private StripeParams(Map<String, String> values) {
        this.values = values;
    }

    /** The servlet's parameters (query string and form body): Stripe reads the first value of a repeated key. */
    public static StripeParams of(Map<String, String[]> raw) {
        Map<String, String> values = new LinkedHashMap<>();
        raw.forEach((key, vals) -> values.put(key, vals.length == 0 ? "" : vals[0]));
        return new StripeParams(values);
    }

    /** A value that is present and not empty (Stripe treats an empty value as "unset"). */
    @Nullable
    public String text(String key) {
        String value = values.get(key);
        return value == null || value.isEmpty() ? null : value;
    }

    public String required(String key) {
        String value = text(key);
        if (value == null) {
            throw StripeError.missing(key);
        }
        return value;
    }

    public boolean has(String key) {
        return values.containsKey(key);
    }

    /** {@code true} or {@code false}, nothing else. */
    @Nullable
    public Boolean bool(String key) {
        return parsed(key, "boolean", value -> switch (value) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(value);
        });
    }

    /** A text of at most 500 characters, as Stripe's short text fields. */
    @Nullable
    public String shortText(String key) {
        String value = text(key);
        if (value != null && value.length() > MAX_TEXT_LENGTH) {
            throw StripeError.invalid(key, key + " can have at most " + MAX_TEXT_LENGTH + " characters.");
        }
        return value;
    }

    @Nullable
    public String email(String key) {
        String value = shortText(key);
        if (value != null && !value.matches("[^@\\s]+@[^@\\s]+")) {
            throw StripeError.invalid(key, "Invalid email address: " + value);
        }
        return value;
    }

    /** An absolute http(s) URL; Stripe's {@code {CHECKOUT_SESSION_ID}} template may appear in it. */
    @Nullable
    String url(String key) {
        String value = text(key);
        if (value == null) {
            return null;
        }
        if (value.length() > MAX_URL_LENGTH) {
            throw StripeError.invalid(key, "Invalid URL: too long.");
        }
        try {
            URI uri = new URI(value.replace("{CHECKOUT_SESSION_ID}", "CHECKOUT_SESSION_ID"));
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
                throw StripeError.invalid(key, "Not a valid URL: " + key + " must be an absolute http(s) URL.");
            }
        } catch (URISyntaxException e) {
            throw StripeError.invalid(key, "Not a valid URL: " + e.getMessage());
        }
        return value;
    }

    /** A non-negative decimal with at most 12 decimal places, as Stripe's {@code *_decimal} amounts. */
    @Nullable
    public BigDecimal decimal(String key) {
        BigDecimal decimal = parsed(key, "decimal", BigDecimal::new);
        if (decimal != null
                && (decimal.signum() < 0 || decimal.stripTrailingZeros().scale() > MAX_DECIMAL_PLACES)) {
            throw StripeError.invalid(
                    key, key + " must be at least 0 and have at most " + MAX_DECIMAL_PLACES + " decimal places.");
        }
        return decimal;
    }

    @Nullable
    public Long integer(String key) {
        return parsed(key, "integer", Long::parseLong);
    }

    /** The value read by {@code parse}; one it refuses (throwing) is Stripe's {@code Invalid <kind>: <value>}. */
    private <T> @Nullable T parsed(String key, String kind, Function<String, T> parse) {
        String value = text(key);
        if (value == null) {
            return null;
        }
        try {
            return parse.apply(value);
        } catch (IllegalArgumentException e) {
            throw StripeError.invalid(key, "Invalid " + kind + ": " + value);
        }
    }

    /** A list's page size: {@code limit}, 1 to 100, 10 by default. */
    public int limit() {
        Long limit = integer("limit");
        if (limit == null) {
            return 10;
        }
        if (limit < 1 || limit > 100) {
            throw StripeError.invalid("limit", "limit must be between 1 and 100.");
        }
        return limit.intValue();
    }

    /** The entries {@code prefix[k]=v}, checked against Stripe's limits; an empty value removes the key. */
    public Map<String, String> metadata(String prefix) {
        Map<String, String> metadata = new LinkedHashMap<>();
        String start = prefix + "[";
        values.forEach((key, value) -> {
            if (key.startsWith(start) && key.endsWith("]")) {
                String name = key.substring(start.length(), key.length() - 1);
                if (name.isEmpty() || name.contains("[") || name.contains("]")) {
                    throw StripeError.invalid(key, "Invalid metadata key: " + key);
                }
                if (name.length() > MAX_METADATA_KEY_LENGTH) {
                    throw StripeError.invalid(
                            key, "Metadata keys can have at most " + MAX_METADATA_KEY_LENGTH + " characters.");
                }
                if (value.length() > MAX_METADATA_VALUE_LENGTH) {
                    throw StripeError.invalid(
                            key, "Metadata values can have at most " + MAX_METADATA_VALUE_LENGTH + " characters.");
                }
                metadata.put(name, value);
            }
        });
        return withinKeyLimit(prefix, metadata);
    }

    /** The metadata after applying {@code changes} (an empty value removes its key), within Stripe's limit. */
    public static Map<String, String> merged(Map<String, String> current, Map<String, String> changes) {
        Map<String, String> merged = new LinkedHashMap<>(current);
        changes.forEach((key, value) -> {
            if (value.isEmpty()) {
                merged.remove(key);
            } else {
                merged.put(key, value);
            }
        });
        return withinKeyLimit("metadata", merged);
    }

    private static Map<String, String> withinKeyLimit(String param, Map<String, String> metadata) {
        if (metadata.size() > MAX_METADATA_KEYS) {
            throw StripeError.invalid(param, "Metadata can have at most " + MAX_METADATA_KEYS + " keys.");
        }
        return metadata;
    }

    /** A list parameter: {@code key[]=a&key[]=b} or {@code key[0]=a&key[1]=b} (stripe-java's encoding). */
    public List<String> list(String key) {
        Map<Integer, String> indexed = new TreeMap<>();
        List<String> appended = new ArrayList<>();
        values.forEach((name, value) -> {
            if (!name.startsWith(key + "[")) {
                return;
            }
            String rest = name.substring(key.length());
            Matcher matcher = LIST_ITEM.matcher(rest);
            if (matcher.matches()) {
                if (matcher.group(1).isEmpty()) {
                    appended.add(value);
                } else {
                    indexed.put(Integer.parseInt(matcher.group(1)), value);
                }
            }
        });
        List<String> list = new ArrayList<>(indexed.values());
        list.addAll(appended);
        return list;
    }

    /**
     * Refuses a parameter whose top-level name the call does not know, as Stripe does, so that a typo in a
     * client fails in the sandbox rather than in production. {@code ignored} names Stripe parameters the
     * sandbox accepts without acting on them.
     */
    public void allowOnly(Collection<String> known, Collection<String> ignored) {
        for (String key : values.keySet()) {
            int bracket = key.indexOf('[');
            String root = bracket < 0 ? key : key.substring(0, bracket);
            if (!known.contains(root) && !ignored.contains(root) && !COMMON.contains(root)) {
                throw StripeError.unknownParameter(key);
            }
        }
    }

    /** The parameters in a stable order: two calls with the same parameters have the same fingerprint. */
    public String fingerprint() {
        StringBuilder builder = new StringBuilder();
        new TreeMap<>(values).forEach((key, value) -> builder.append(key.length())
                .append(':')
                .append(key)
                .append('=')
                .append(value.length())
                .append(':')
                .append(value)
                .append('&'));
        return builder.toString();
    }
}
