package com.kvportal.billing.ids;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * An id of an object at the payment provider: its type's prefix ({@code cus_}, {@code sub_}, {@code in_},
 * {@code ii_}, ...) and then letters, digits and underscores. Each type of object has its own subclass, so that one is
 * never passed for another; two ids are equal when they are of the same type and value. Its text is {@link #value()}
 * (and {@link #toString()}), written only where an id leaves the code: SQL, JSON, a log, a call to the provider.
 */
public abstract sealed class ProviderId
        permits ProviderCustomerId, ProviderSubscriptionId, ProviderInvoiceId, ProviderInvoiceItemId {

    private static final Pattern BODY = Pattern.compile("[A-Za-z0-9_]{1,250}");

    private final String value;

    ProviderId(String value, String prefix, String type) {
        if (!wellFormed(value, prefix)) {
            throw new IllegalArgumentException("not a provider " + type + " id: " + value);
        }
        this.value = value;
    }

    /** Whether the text is an id of the type that {@code prefix} names. */
    public static boolean wellFormed(@Nullable String value, String prefix) {
        return value != null
                && value.startsWith(prefix)
                && BODY.matcher(value.substring(prefix.length())).matches();
    }

    /** The typed id of a text that may be absent (a nullable column); a text not of the type is refused. */
    public static <T extends ProviderId> @Nullable T ofNullable(@Nullable String value, Function<String, T> type) {
        return value == null ? null : type.apply(value);
    }

    /** The text of an id that may be absent, for a nullable column or field. */
    public static @Nullable String valueOf(@Nullable ProviderId id) {
        return id == null ? null : id.value;
    }

    /** Its text, as the provider wrote it (and as JSON writes it). */
    @JsonValue
    public final String value() {
        return value;
    }

    @Override
    public final boolean equals(@Nullable Object other) {
        return other != null && other.getClass() == getClass() && ((ProviderId) other).value.equals(value);
    }

    @Override
    public final int hashCode() {
        return value.hashCode();
    }

    @Override
    public final String toString() {
        return value;
    }
}
