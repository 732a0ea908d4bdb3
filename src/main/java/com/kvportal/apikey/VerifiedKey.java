package com.kvportal.apikey;

import com.kvportal.billing.Tier;
import com.kvportal.usage.StorageStanding.Standing;
import java.util.List;
import java.util.UUID;

/**
 * What verify answers for a usable key, with what the storage backend needs to enforce the organization's plan.
 */
public record VerifiedKey(
        UUID customerId, UUID projectId, UUID organizationId, List<String> permissions, Tier tier, Storage storage) {

    /** The organization's storage against its allowance; the backend refuses writes while writeAllowed is false. */
    public record Storage(long usedBytes, long allowanceBytes, boolean writeAllowed) {}

    static VerifiedKey of(StoredKey key, Standing standing) {
        return new VerifiedKey(
                key.customerId(),
                key.projectId(),
                key.organizationId(),
                key.permissions(),
                standing.tier(),
                new Storage(standing.usedBytes(), standing.allowanceBytes(), standing.writeAllowed()));
    }
}
