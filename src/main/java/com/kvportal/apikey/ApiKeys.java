package com.kvportal.apikey;

import com.kvportal.apikey.ApiKeyProblems.ApiKeyNotFound;
import com.kvportal.apikey.ApiKeyProblems.KeyLimitReached;
import com.kvportal.apikey.ApiKeyProblems.KeyRefused;
import com.kvportal.apikey.ApiKeyProblems.KeyRevoked;
import com.kvportal.apikey.analytics.Outcome;
import com.kvportal.apikey.analytics.VerificationCounter;
import com.kvportal.common.limits.MissBudget;
import com.kvportal.common.limits.TooManyRequests;
import com.kvportal.common.openapi.Permission;
import com.kvportal.security.ApiKeyAuthenticator;
import com.kvportal.security.Caller;
import com.kvportal.security.CallerRoles;
import com.kvportal.security.OrganizationKeys;
import com.kvportal.usage.StorageStanding;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import lombok.AccessLevel;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The API-key feature: create, list, update, roll, verify and revoke keys, revoke leaked ones, and authenticate a
 * request by its key. Every change publishes an {@link ApiKeyEvent} inside its transaction; every change that
 * narrows a key goes through {@link KeyNarrowing}.
 */
@Service
@RequiredArgsConstructor(access = AccessLevel.PACKAGE)
public class ApiKeys implements ApiKeyAuthenticator, OrganizationKeys {

    static final int MAX_LIVE_KEYS_PER_PROJECT = 1000;

    private final StoredApiKeys keys;
    private final LastUseRecorder lastUse;
    private final KeyCache cache;
    private final KeyNarrowing narrowing;
    private final ApplicationEventPublisher events;
    private final StorageStanding storage;
    private final KeyMetrics metrics;
    private final MissBudget misses;
    private final CallerRoles roles;
    private final VerificationCounter verifications;
    private final Clock clock;

    /** A new key and its raw value, which exists only in this answer. */
    public record Created(String rawKey, ApiKey key) {}

    @Transactional
    public Created create(Caller caller, NewApiKey request) {
        NewApiKey.Valid valid = request.resolve(clock.instant());
        requireMayHold(caller, valid.permissions());
        keys.lockProject(caller.projectId());
        if (keys.countLive(caller.projectId()) >= MAX_LIVE_KEYS_PER_PROJECT) {
            throw new KeyLimitReached(MAX_LIVE_KEYS_PER_PROJECT);
        }
        Created created = insertKey(caller, valid.name(), valid.permissions(), valid.expiresAt());
        ApiKey key = created.key();
        events.publishEvent(new ApiKeyEvent.Created(
                caller.organizationId(), key.projectId(), key.id(), key.name(), key.permissions(), key.expiresAt()));
        return created;
    }

    /**
     * Changes a live key of the caller's active project; what is left out stays. A change that narrows the key
     * (a permission less, an earlier expiry) holds on every instance once this returns.
     */
    @Transactional
    public ApiKey update(Caller caller, UUID keyId, KeyUpdate request) {
        KeyUpdate.Valid valid = request.resolve();
        StoredApiKeys.Locked locked = keys.lockInProject(caller.projectId(), keyId)
                .filter(found -> !found.revoked())
                .orElseThrow(ApiKeyNotFound::new);
        ApiKey old = locked.key();
        String name = Objects.requireNonNullElse(valid.name(), old.name());
        List<String> permissions = Objects.requireNonNullElse(valid.permissions(), old.permissions());
        requireMayHold(caller, old.permissions());
        requireMayHold(caller, permissions);
        Instant expiresAt = Objects.requireNonNullElse(valid.expiresAt(), old.expiresAt());
        Map<String, Map<String, Object>> changes = new LinkedHashMap<>();
        if (!name.equals(old.name())) {
            changes.put("name", Map.of("from", old.name(), "to", name));
        }
        if (!Set.copyOf(permissions).equals(Set.copyOf(old.permissions()))) {
            changes.put("permissions", Map.of("from", old.permissions(), "to", permissions));
        }
        if (!expiresAt.equals(old.expiresAt())) {
            changes.put("expires_at", Map.of("from", old.expiresAt(), "to", expiresAt));
        }
        if (changes.isEmpty()) {
            return old;
        }
        ApiKey updated = keys.update(keyId, name, permissions, expiresAt);
        boolean narrowed =
                !Set.copyOf(permissions).containsAll(old.permissions()) || expiresAt.isBefore(old.expiresAt());
        if (narrowed) {
            narrowing.narrowed(keyId);
        }
        events.publishEvent(new ApiKeyEvent.Updated(
                caller.organizationId(), updated.projectId(), keyId, updated.name(), changes, narrowed));
        return updated;
    }

    /** A new key that replaces an old one, and what became of the old one. */
    public record Rolled(String rawKey, ApiKey key, UUID previousId, Instant previousExpiresAt) {}

    /**
     * Replaces a key of the caller's active project by a new one with its name and permissions; the old key works
     * on for the grace period (but never longer than it would have), or is revoked at once for a grace of 0.
     */
    @Transactional
    public Rolled roll(Caller caller, UUID keyId, KeyRoll request) {
        Instant now = clock.instant();
        KeyRoll.Valid valid = request.resolve(now);
        keys.lockProject(caller.projectId());
        StoredApiKeys.Locked locked =
                keys.lockInProject(caller.projectId(), keyId).orElseThrow(ApiKeyNotFound::new);
        if (locked.revoked()) {
            throw new KeyRevoked();
        }
        requireMayHold(caller, locked.key().permissions());
        boolean revokeNow = valid.grace().isZero();
        // the new key counts; an old key revoked at once makes room for it
        if (keys.countLive(caller.projectId()) - (revokeNow ? 1 : 0) >= MAX_LIVE_KEYS_PER_PROJECT) {
            throw new KeyLimitReached(MAX_LIVE_KEYS_PER_PROJECT);
        }
        ApiKey old = locked.key();
        Instant graceEnd = now.plus(valid.grace()).truncatedTo(ChronoUnit.SECONDS);
        Instant previousExpiresAt = graceEnd.isBefore(old.expiresAt()) ? graceEnd : old.expiresAt();
        keys.update(old.id(), old.name(), old.permissions(), previousExpiresAt);
        if (revokeNow) {
            keys.revoke(old.id());
        }
        narrowing.narrowed(old.id());
        Created created = insertKey(caller, old.name(), old.permissions(), valid.expiresAt());
        ApiKey key = created.key();
        events.publishEvent(new ApiKeyEvent.Rolled(
                caller.organizationId(),
                key.projectId(),
                key.id(),
                key.name(),
                old.id(),
                previousExpiresAt,
                valid.grace().toSeconds()));
        return new Rolled(created.rawKey(), key, old.id(), previousExpiresAt);
    }

    /**
     * A key never holds more than its creator may do: a key that holds or would hold {@code admin} is created,
     * changed or rolled only by an owner or admin (or by an admin key, which acts as one only while its creator is).
     */
    private void requireMayHold(Caller caller, List<String> permissions) {
        if (permissions.contains("admin") && !roles.holds(caller, Permission.MANAGE_ADMIN_KEYS)) {
            throw ApiKeyProblems.adminNotYours();
        }
    }

    /** Stores a new key in the caller's active project; its raw value exists only in the answer. */
    private Created insertKey(Caller caller, String name, List<String> permissions, Instant expiresAt) {
        RawKey raw = ApiKeyFormat.generate();
        ApiKey key = keys.insert(
                UUID.randomUUID(),
                caller.projectId(),
                caller.organizationId(),
                caller.customerId(),
                name,
                raw.digest(),
                permissions,
                expiresAt);
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
        StoredApiKeys.Locked locked =
                keys.lockInProject(caller.projectId(), keyId).orElseThrow(ApiKeyNotFound::new);
        if (locked.revoked()) {
            return; // nothing changes, nothing to record
        }
        keys.revoke(keyId);
        narrowing.narrowed(keyId);
        ApiKey key = locked.key();
        events.publishEvent(new ApiKeyEvent.Revoked(caller.organizationId(), key.projectId(), keyId, key.name()));
    }

    /** The organization is deleted: each of its live keys is revoked as {@link #revoke} revokes one. */
    @Override
    @Transactional
    public int revokeAll(UUID organizationId) {
        List<ApiKey> live = keys.lockLiveInOrganization(organizationId);
        for (ApiKey key : live) {
            keys.revoke(key.id());
            narrowing.narrowed(key.id());
            events.publishEvent(new ApiKeyEvent.Revoked(organizationId, key.projectId(), key.id(), key.name()));
        }
        return live.size();
    }

    /** How a reported token turned out: one of our keys (revoked now if it was live) or not. */
    public enum LeakVerdict {
        TRUE_POSITIVE,
        FALSE_POSITIVE
    }

    /**
     * A secret scanner found this token in public: if it is a live key, it is revoked at once (with the event
     * {@link ApiKeyEvent.Leaked}); a token that is not one of our keys changes nothing.
     */
    @Transactional
    public LeakVerdict revokeLeaked(String token, String tokenType, String url, String source) {
        if (!ApiKeyFormat.isWellFormed(token)) {
            return LeakVerdict.FALSE_POSITIVE;
        }
        Optional<StoredApiKeys.Found> found = keys.lockByDigest(new RawKey(token).digest());
        if (found.isEmpty()) {
            return LeakVerdict.FALSE_POSITIVE;
        }
        StoredApiKeys.Found key = found.get();
        if (!key.revoked()) {
            keys.revoke(key.key().id());
            narrowing.narrowed(key.key().id());
            events.publishEvent(new ApiKeyEvent.Leaked(
                    key.organizationId(),
                    key.key().projectId(),
                    key.key().id(),
                    key.key().name(),
                    tokenType,
                    url,
                    source));
        }
        return LeakVerdict.TRUE_POSITIVE;
    }

    /** A key as the list shows it (revoked or not), e.g. for the data of a webhook event about it. */
    public Optional<ApiKey> listItem(UUID keyId) {
        return keys.find(keyId);
    }

    /** The name of a key, e.g. to name the key that acted in an audit line. */
    public Optional<String> nameOf(UUID keyId) {
        return keys.find(keyId).map(ApiKey::name);
    }

    /**
     * Verifies a presented key: a malformed one is refused without touching the database, a well-formed
     * one is answered from memory while this instance's lease holds (else one indexed query), and the use
     * is recorded off the request path.
     *
     * @param client the {@link com.kvportal.common.limits.ClientAddress} whose budget of lookups that miss is spent
     * @throws com.kvportal.common.web.ProblemException 401 {@code invalid_api_key}, {@code api_key_revoked} or {@code api_key_expired}
     * @throws TooManyRequests when a key that memory cannot answer comes from a client that spent its budget
     */
    public VerifiedKey verify(@Nullable String presented, String client) {
        long started = System.nanoTime();
        StoredKey key;
        try {
            key = usable(presented, client, true);
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
    public Optional<Caller> authenticate(String presented, String client) {
        StoredKey key;
        try {
            key = usable(presented, client, false);
        } catch (KeyRefused refused) {
            return Optional.empty();
        }
        return Optional.of(new Caller(
                key.customerId(), key.organizationId(), key.projectId(), key.id(), Set.copyOf(key.permissions())));
    }

    /**
     * The one decision of verify and of a key used as credential; records the use of a usable key.
     *
     * @param verify whether this is a verify, whose answer for a known key is counted under its {@link Outcome}
     */
    private StoredKey usable(@Nullable String presented, String client, boolean verify) {
        StoredKey key = lookUp(presented, client).orElseThrow(KeyRefused::invalid);
        Instant now = clock.instant();
        if (key.isRevoked()) {
            throw refused(key, Outcome.REVOKED, verify, KeyRefused.revoked());
        }
        if (key.isExpiredAt(now)) {
            throw refused(key, Outcome.EXPIRED, verify, KeyRefused.expired());
        }
        if (verify) {
            verifications.count(key.id(), Outcome.VALID);
        }
        lastUse.used(key.id(), now);
        return key;
    }

    /** A known key refused: a verify is counted under the refusal's outcome. */
    private KeyRefused refused(StoredKey key, Outcome outcome, boolean verify, KeyRefused refusal) {
        if (verify) {
            verifications.count(key.id(), outcome);
        }
        return refusal;
    }

    /** From memory when it can; a database lookup spends the client's budget of lookups that find nothing. */
    private Optional<StoredKey> lookUp(@Nullable String presented, String client) {
        if (presented == null || !ApiKeyFormat.isWellFormed(presented)) {
            return Optional.empty();
        }
        return cache.find(
                new RawKey(presented).digest(), digest -> misses.lookUp(client, () -> keys.findByDigest(digest)));
    }
}
