package com.kvportal.billing.stripe;

import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/** The shape of the provider's object ids: a type prefix and then letters, digits and underscores. */
final class ProviderIds {

    private static final Pattern BODY = Pattern.compile("[A-Za-z0-9_]{1,250}");

    private ProviderIds() {}

    static boolean wellFormed(@Nullable String value, String prefix) {
        return value != null
                && value.startsWith(prefix)
                && BODY.matcher(value.substring(prefix.length())).matches();
    }
}
