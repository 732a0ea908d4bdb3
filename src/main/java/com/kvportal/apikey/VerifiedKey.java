package com.kvportal.apikey;

import com.kvportal.apikey.limits.LimitState;
import com.kvportal.billing.Tier;
import com.kvportal.usage.Standing;
import com.kvportal.usage.WriteRefusal;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * What verify answers for a usable key, with what the storage backend needs to enforce the organization's plan.
 */
public record VerifiedKey(
        @Schema(description = "The key's id, as the list shows it and as verify-lease events name it.") UUID keyId,
        @Schema(description = "The customer who created the key.") UUID customerId,
        UUID projectId,
        UUID organizationId,
        @ArraySchema(schema = @Schema(allowableValues = {"read", "write", "admin"})) List<String> permissions,
        @Schema(description = "The organization's effective plan.") Tier tier,
        Storage storage,
        @Schema(description = "The key's metadata, as the customer set it.") Map<String, @Nullable Object> metadata,
        @Schema(nullable = true, description = "The customer's own name for whoever uses the key.") @Nullable
                String externalId,
        @Schema(description = "Always true here: a disabled key is refused (401 api_key_disabled).") boolean enabled,
        @ArraySchema(
                        arraySchema =
                                @Schema(
                                        nullable = true,
                                        description = "Null: usable from any address; else the addresses and CIDR"
                                                + " blocks it may be used from."))
                @Nullable
                List<String> allowedIps,
        @Schema(description = "The key's rate limits as this verify leaves them; [] without any.")
                List<LimitState.RateLimitState> ratelimits,
        @Schema(nullable = true, description = "The key's credits as this verify leaves them; null: unlimited.")
                LimitState.@Nullable CreditState credits,
        @Schema(
                        description = "Whether a holder of a verify lease may cache this answer: false for a key with"
                                + " rate limits or credits, or that expires within a minute, which must be asked of"
                                + " the service on every use.")
                boolean cacheable) {

    /**
     * How long before its expiry a key's answers may no longer be cached by a verify-lease holder: the holder does not
     * know the expiry, so it asks the service every time from then on, and the service refuses the key at its expiry to
     * the second. A key enters this window with an event to the holders ({@code apikey.cache.ExpiringKeys}).
     */
    public static final Duration UNCACHEABLE_BEFORE_EXPIRY = Duration.ofMinutes(1);

    /** The organization's storage against its allowance; the backend refuses writes while writeAllowed is false. */
    @Schema(name = "StorageStanding")
    public record Storage(
            @Schema(description = "The organization's current storage in bytes.", minimum = "0") long usedBytes,
            @Schema(description = "The effective plan's storage allowance in bytes.", minimum = "0")
                    long allowanceBytes,
            @Schema(description = "False when the backend must refuse writes (reads go on): see reason.")
                    boolean writeAllowed,
            @Schema(
                            description = "Null when writes are allowed; else why not, the first that applies in this"
                                    + " order: storage_cap (the organization's storage cap is reached), overage_cap"
                                    + " (the projected overage reached the overage cap; a cap of 0: storage reached the allowance),"
                                    + " allowance_reached (a plan without overage is full).",
                            nullable = true)
                    @Nullable
                    WriteRefusal reason) {}

    /** Whether a holder may cache an answer of this key now: no rate limits or credits, and not about to expire. */
    static boolean cacheable(StoredKey key, Instant now) {
        return key.limits().isNone()
                && key.expiresAtSecond() > now.plus(UNCACHEABLE_BEFORE_EXPIRY).getEpochSecond();
    }

    static VerifiedKey of(StoredKey key, Standing standing, LimitState limits, Instant now) {
        return new VerifiedKey(
                key.id(),
                key.customerId(),
                key.projectId(),
                key.organizationId(),
                key.permissions(),
                standing.tier(),
                new Storage(
                        standing.usedBytes(), standing.allowanceBytes(), standing.writeAllowed(), standing.refusal()),
                key.shape().metadata(),
                key.shape().externalId(),
                key.shape().enabled(),
                key.shape().allowedIpList(),
                limits.ratelimits(),
                limits.credits(),
                cacheable(key, now));
    }
}
