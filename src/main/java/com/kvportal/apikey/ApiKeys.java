package com.kvportal.apikey;

import com.kvportal.apikey.ApiKeyProblems.ApiKeyNotFound;
import com.kvportal.apikey.ApiKeyProblems.KeyLimitReached;
import com.kvportal.apikey.ApiKeyProblems.KeyRefused;
import com.kvportal.security.ApiKeyAuthenticator;
import com.kvportal.security.Caller;
import com.kvportal.usage.StorageStanding;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** The API-key feature: create, list, verify and revoke keys, and authenticate a request by its key. */
@Service
public class ApiKeys implements ApiKeyAuthenticator {

    static final int MAX_LIVE_KEYS_PER_PROJECT = 1000;

    private final StoredApiKeys keys;
    private final LastUseRecorder lastUse;
    private final StorageStanding storage;
    private final Clock clock;

    ApiKeys(StoredApiKeys keys, LastUseRecorder lastUse, StorageStanding storage, Clock clock) {
        this.keys = keys;
        this.lastUse = lastUse;
        this.storage = storage;
        this.clock = clock;
    }

    /** A new key and its raw value, which exists only in this answer. */
    public record Created(String rawKey, ApiKey key) {}

    @Transactional
    public Created create(Caller caller, NewApiKey request) {
        NewApiKey.Valid valid = request.resolve(clock.instant());
        keys.lockProject(caller.projectId());
        if (keys.countLive(caller.projectId()) >= MAX_LIVE_KEYS_PER_PROJECT) {
            throw new KeyLimitReached(MAX_LIVE_KEYS_PER_PROJECT);
        }
        RawKey raw = ApiKeyFormat.generate();
        ApiKey key = keys.insert(
                UUID.randomUUID(),
                caller.projectId(),
                caller.organizationId(),
                caller.customerId(),
                valid.name(),
                raw.digest(),
                valid.permissions(),
                valid.expiresAt());
        return new Created(raw.value(), key);
    }

    public List<ApiKey> list(Caller caller) {
        return keys.listLive(caller.projectId());
    }

    /** Revokes a key of the caller's active project; from the commit on, every instance refuses it. */
    @Transactional
    public void revoke(Caller caller, UUID keyId) {
        if (!keys.revoke(caller.projectId(), keyId)) {
            throw new ApiKeyNotFound();
        }
    }

    /**
     * Verifies a presented key: a malformed one is refused without touching the database, a well-formed
     * one costs one indexed query, and the use is recorded off the request path.
     *
     * @throws com.kvportal.common.web.ProblemException 401 {@code invalid_api_key}, {@code api_key_revoked} or {@code api_key_expired}
     */
    public VerifiedKey verify(@Nullable String presented) {
        StoredKey key = lookUp(presented).orElseThrow(KeyRefused::invalid);
        Instant now = clock.instant();
        if (key.isRevoked()) {
            throw KeyRefused.revoked();
        }
        if (key.isExpiredAt(now)) {
            throw KeyRefused.expired();
        }
        lastUse.used(key.id(), now);
        // the plan fields come from memory: no second round trip
        return VerifiedKey.of(key, storage.standingOf(key.organizationId()));
    }

    @Override
    public Optional<Caller> authenticate(String presented) {
        Instant now = clock.instant();
        return lookUp(presented)
                .filter(key -> !key.isRevoked() && !key.isExpiredAt(now))
                .map(key -> {
                    lastUse.used(key.id(), now);
                    return new Caller(
                            key.customerId(),
                            key.organizationId(),
                            key.projectId(),
                            key.id(),
                            Set.copyOf(key.permissions()));
                });
    }

    private Optional<StoredKey> lookUp(@Nullable String presented) {
        if (presented == null || !ApiKeyFormat.isWellFormed(presented)) {
            return Optional.empty();
        }
        return keys.findByDigest(new RawKey(presented).digest());
    }
}
