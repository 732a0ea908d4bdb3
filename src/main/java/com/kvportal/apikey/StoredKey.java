package com.kvportal.apikey;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** The row verify loads in its one query: everything needed to accept or refuse a key. */
record StoredKey(
        UUID id,
        UUID customerId,
        UUID projectId,
        UUID organizationId,
        List<String> permissions,
        Instant expiresAt,
        @Nullable Instant revokedAt) {

    boolean isRevoked() {
        return revokedAt != null;
    }

    boolean isExpiredAt(Instant now) {
        return !expiresAt.isAfter(now);
    }
}
