package com.kvportal.apikey;

import com.github.benmanes.caffeine.cache.Interner;
import com.kvportal.apikey.fields.KeyShape;
import com.kvportal.apikey.limits.KeyLimits;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * The row verify loads in its one query: everything needed to accept or refuse a key.
 *
 * <p>Every cached key is one of these, so it is kept small (docs/design.md, "The key cache": heap per key): the key's
 * own id in two longs, its expiry in epoch seconds (expiry is stored in whole seconds), and what many keys share,
 * their customer's, project's and organization's ids and their permission list, interned: one object for every key
 * that holds the same value, instead of one per key as the driver reads them.
 */
public record StoredKey(
        long idHigh,
        long idLow,
        UUID customerId,
        UUID projectId,
        UUID organizationId,
        List<String> permissions,
        long expiresAtSecond,
        @Nullable Instant revokedAt,
        KeyShape shape,
        KeyLimits limits) {

    private static final Interner<UUID> IDS = Interner.newWeakInterner();
    private static final Interner<List<String>> PERMISSIONS = Interner.newWeakInterner();

    static StoredKey of(
            UUID id,
            UUID customerId,
            UUID projectId,
            UUID organizationId,
            List<String> permissions,
            Instant expiresAt,
            @Nullable Instant revokedAt,
            KeyShape shape,
            KeyLimits limits) {
        return new StoredKey(
                id.getMostSignificantBits(),
                id.getLeastSignificantBits(),
                IDS.intern(customerId),
                IDS.intern(projectId),
                IDS.intern(organizationId),
                PERMISSIONS.intern(List.copyOf(permissions)),
                expiresAt.getEpochSecond(),
                revokedAt,
                shape.equals(KeyShape.DEFAULT) ? KeyShape.DEFAULT : shape,
                limits);
    }

    UUID id() {
        return new UUID(idHigh, idLow);
    }

    boolean isRevoked() {
        return revokedAt != null;
    }

    boolean isExpiredAt(Instant now) {
        return expiresAtSecond <= now.getEpochSecond();
    }
}
