package com.kvportal.apikey.fields;

import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What a customer shapes a key with besides its name, permissions and expiry: its metadata, external id, whether it
 * is enabled and the addresses it may be used from. Created with a key, changed by an update, copied by a roll.
 */
public record KeyShape(
        Map<String, @Nullable Object> metadata,
        @Nullable String externalId,
        boolean enabled,
        @Nullable AllowedIps allowedIps) {

    /** A key's shape when a create leaves everything out: no metadata, no external id, enabled, from anywhere. */
    public static final KeyShape DEFAULT = new KeyShape(Map.of(), null, true, null);

    /** The allowed addresses as the API answers them: null for anywhere. */
    @Nullable
    public List<String> allowedIpList() {
        return allowedIps == null ? null : allowedIps.canonical();
    }

    /** Whether a client at this address may use the key (any address when it has no allowed addresses). */
    public boolean allows(@Nullable String clientIp) {
        return allowedIps == null || (clientIp != null && allowedIps.allows(clientIp));
    }

    /** Whether going from this shape to {@code next} refuses a use that was accepted: a disable, fewer addresses. */
    public boolean narrowedBy(KeyShape next) {
        if (enabled && !next.enabled) {
            return true;
        }
        if (next.allowedIps == null) {
            return false;
        }
        return allowedIps == null || !next.allowedIps.covers(allowedIps);
    }
}
