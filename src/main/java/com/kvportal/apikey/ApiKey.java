package com.kvportal.apikey;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** A key as the list shows it: never the raw key, never its digest. */
public record ApiKey(
        UUID id,
        UUID projectId,
        String name,
        List<String> permissions,
        Instant expiresAt,
        @Nullable Instant lastUsedAt,
        Instant createdAt) {}
