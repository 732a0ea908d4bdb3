package com.kvportal.apikey.limits;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;

/**
 * Reads {@code credits} of an update, where null and absent differ: absent keeps the key's credits (null), an
 * explicit null makes the key unlimited ({@link #UNLIMITED}), an object replaces them.
 */
public final class CreditsPatch extends ValueDeserializer<Credits> {

    /** What an explicit {@code "credits": null} reads as (compared by identity). */
    public static final Credits UNLIMITED = new Credits(0L, null);

    public static boolean isUnlimited(@Nullable Credits credits) {
        return credits == UNLIMITED;
    }

    @Override
    public Credits deserialize(JsonParser parser, DeserializationContext context) {
        return context.readValue(parser, Credits.class);
    }

    @Override
    public Object getNullValue(DeserializationContext context) {
        return UNLIMITED;
    }

    @Override
    public @Nullable Object getAbsentValue(DeserializationContext context) {
        return null;
    }
}
