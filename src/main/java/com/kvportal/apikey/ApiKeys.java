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
    private final KeyCache cache;
    private final KeyNarrowing narrowing;
    private final StorageStanding storage;
    private final KeyMetrics metrics;
    private final Clock clock;

    ApiKeys(
            StoredApiKeys keys,
            LastUseRecorder lastUse,
            KeyCache cache,
            KeyNarrowing narrowing,
            StorageStanding storage,
            KeyMetrics metrics) {
        this.keys = keys;
        this.lastUse = lastUse;
        this.cache = cache;
        this.narrowing = narrowing;
        this.storage = storage;
        this.metrics = metrics;
        this.clock = Clock.systemUTC();
    }

    /** A new key and its raw value, which exists only in this answer. */
    public record Created(String rawKey, ApiKey key) {}

    @Transactional
    public Created create(Caller caller, NewApiKey request) {
        NewApiKey.Valid valid = request.validate(clock.instant());
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

    /**
     * Revokes a key of the caller's active project. Answers once every instance has dropped it from memory (or
     * lost its lease): from then on, every instance refuses it.
     */
    @Transactional
    public void revoke(Caller caller, UUID keyId) {
        if (!keys.revoke(caller.projectId(), keyId)) {
            throw new ApiKeyNotFound();
        }
        narrowing.narrowed(keyId);
    }

    /**
     * Verifies a presented key: a malformed one is refused without touching the database, a well-formed
     * one is answered from memory while this instance's lease holds (else one indexed query), and the use
     * is recorded off the request path.
     *
     * @throws com.kvportal.common.web.ProblemException 401 {@code invalid_api_key}, {@code api_key_revoked} or {@code api_key_expired}
     */
    public VerifiedKey verify(@Nullable String presented) {
        long started = System.nanoTime();
        StoredKey key;
        try {
            key = usable(presented);
        } catch (KeyRefused refused) {
            metrics.verified(refused.code(), started);
            throw refused;
        }
        // the plan fields come from memory too: no round trip (usage's StorageStanding, at most 5 s old)
        VerifiedKey verified = VerifiedKey.of(key, storage.standingOf(key.organizationId()));
        metrics.verified("ok", started);
        return verified;
    }

    /** The caller that a usable key stands for, or empty for a key that is malformed, unknown, revoked or expired. */
    @Override
    public Optional<Caller> authenticate(String presented) {
        StoredKey key;
        try {
            key = usable(presented);
        } catch (KeyRefused refused) {
            return Optional.empty();
        }
        return Optional.of(new Caller(
                key.customerId(), key.organizationId(), key.projectId(), key.id(), Set.copyOf(key.permissions())));
    }

    /** The one decision of verify and of a key used as credential; records the use of a usable key. */
    private StoredKey usable(@Nullable String presented) {
        StoredKey key = lookUp(presented).orElseThrow(KeyRefused::invalid);
        Instant now = clock.instant();
        if (key.isRevoked()) {
            throw KeyRefused.revoked();
        }
        if (key.isExpiredAt(now)) {
            throw KeyRefused.expired();
        }
        lastUse.used(key.id(), now);
        return key;
    }

    private Optional<StoredKey> lookUp(@Nullable String presented) {
        if (presented == null || !ApiKeyFormat.isWellFormed(presented)) {
            return Optional.empty();
        }
        return cache.find(new RawKey(presented).digest(), keys::findByDigest);
    }
}
