package com.kvportal.common;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * An enum written on the wire and in the database by a name of its own: its constant's name in lower case
 * ({@code PAST_DUE} is {@code past_due}) unless it overrides {@link #wire()} (the provider's event types,
 * {@code invoice.paid}). The one place that maps a constant to its wire name and back, and a type's name to its wire
 * name ({@link #ofType}).
 */
public interface WireName {

    /** The constant's name, as {@link Enum#name()} gives it. */
    String name();

    @JsonValue
    default String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * A type's simple name as the wire writes it, in snake case: the event record {@code SecretRotated} is
     * {@code secret_rotated}.
     */
    static String ofType(Class<?> type) {
        return type.getSimpleName().replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
    }

    /** The constant of {@code type} with exactly this wire name; empty for anything else. */
    static <E extends Enum<E> & WireName> Optional<E> of(Class<E> type, String wire) {
        return Arrays.stream(type.getEnumConstants())
                .filter(constant -> constant.wire().equals(wire))
                .findFirst();
    }
}
