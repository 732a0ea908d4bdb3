package com.kvportal.apikey;

import com.kvportal.account.AccountEvent;
import com.kvportal.apikey.ApiKeyProblem.ApiKeyNotFound;
import com.kvportal.apikey.ApiKeyProblem.KeyLimitReached;
import com.kvportal.apikey.ApiKeyProblem.KeyPolicyViolation;
import com.kvportal.apikey.ApiKeyProblem.KeyRefused;
import com.kvportal.apikey.ApiKeyProblem.KeyRevoked;
import com.kvportal.apikey.activity.LastUseRecorder;
import com.kvportal.apikey.analytics.Outcome;
import com.kvportal.apikey.analytics.VerificationCounter;
import com.kvportal.apikey.cache.KeyCache;
import com.kvportal.apikey.cache.KeyMetrics;
import com.kvportal.apikey.cache.KeyNarrowing;
import com.kvportal.apikey.fields.KeyShape;
import com.kvportal.apikey.fields.KeyUpdate;
import com.kvportal.apikey.limits.CreditsPatch;
import com.kvportal.apikey.limits.KeyLimitsStore;
import com.kvportal.apikey.limits.LimitRefused;
import com.kvportal.apikey.limits.LimitState;
import com.kvportal.apikey.limits.Limiter;
import com.kvportal.apikey.limits.RateLimit;
import com.kvportal.apikey.policy.KeyPolicies;
import com.kvportal.apikey.policy.KeyPolicy;
import com.kvportal.apikey.web.VerifyRequest;
import com.kvportal.common.limits.MissBudget;
import com.kvportal.common.limits.TooManyRequests;
import com.kvportal.security.ApiKeyAuthenticator;
import com.kvportal.security.Caller;
import com.kvportal.security.CallerRoles;
import com.kvportal.security.Permission;
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
import org.springframework.context.event.EventListener;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The API-key feature: create, list, update, roll, verify and revoke keys, revoke leaked ones, and authenticate a
 * request by its key. Every change publishes an {@link ApiKeyEvent} inside its transaction; every change that
 * narrows a key goes through {@link KeyNarrowing}.
 */
@Service
@RequiredArgsConstructor(access = AccessLevel.PACKAGE)
public class ApiKeys implements ApiKeyAuthenticator {

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
    private final KeyPolicies policies;
    private final VerificationCounter verifications;
    private final Clock clock;
    private final KeyLimitsStore limits;
    private final Limiter limiter;

    /** A new key and its raw value, which exists only in this answer. */
    public record Created(String rawKey, ApiKey key) {}

    @Transactional
    public Created create(Caller caller, NewApiKey request) {
        Instant now = clock.instant();
        NewApiKey.Valid valid = request.resolve();
        requireMayHold(caller, valid.permissions());
        KeyPolicy policy = policies.of(caller.organizationId());
        Instant expiresAt = expiryWithin(policy, now, valid.expiresAt());
        requireAllowedIps(policy, valid.shape());
        keys.lockProject(caller.projectId());
        if (keys.countLive(caller.projectId()) >= MAX_LIVE_KEYS_PER_PROJECT) {
            throw new KeyLimitReached(MAX_LIVE_KEYS_PER_PROJECT);
        }
        Created inserted = insertKey(caller, valid.name(), valid.permissions(), expiresAt, valid.shape());
        limits.setRatelimits(inserted.key().id(), request.ratelimits() == null ? List.of() : request.ratelimits());
        limits.setCredits(inserted.key().id(), request.credits(), clock.instant());
        Created created =
                new Created(inserted.rawKey(), keys.find(inserted.key().id()).orElseThrow());
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
        KeyShape oldShape = old.shape();
        KeyShape shape = valid.applyTo(oldShape);
        KeyPolicy policy = policies.of(caller.organizationId());
        if (valid.expiresAt() != null) {
            expiryWithin(policy, clock.instant(), valid.expiresAt());
        }
        requireAllowedIps(policy, shape);
        Map<String, Map<String, Object>> changes = new LinkedHashMap<>();
        change(changes, "name", old.name(), name);
        if (!Set.copyOf(permissions).equals(Set.copyOf(old.permissions()))) {
            change(changes, "permissions", old.permissions(), permissions);
        }
        change(changes, "expires_at", old.expiresAt(), expiresAt);
        change(changes, "metadata", oldShape.metadata(), shape.metadata());
        change(changes, "external_id", oldShape.externalId(), shape.externalId());
        change(changes, "allowed_ips", oldShape.allowedIpList(), shape.allowedIpList());
        boolean switched = oldShape.enabled() != shape.enabled();
        boolean limitsChanged = changeLimits(keyId, request, old, changes);
        if (changes.isEmpty() && !switched) {
            return old;
        }
        ApiKey updated = keys.update(keyId, name, permissions, expiresAt, shape);
        boolean narrowed = !Set.copyOf(permissions).containsAll(old.permissions())
                || expiresAt.isBefore(old.expiresAt())
                || oldShape.narrowedBy(shape);
        // every instance must answer with the new state: a narrowing change once this returns, a wider one soon; new
        // limits or credits hold on every instance once answered (each reloads the key and drops the credits it set
        // aside of a replaced budget)
        if (narrowed || limitsChanged) {
            narrowing.narrowed(keyId);
        } else {
            narrowing.widened(keyId);
        }
        if (!changes.isEmpty()) {
            events.publishEvent(new ApiKeyEvent.Updated(
                    caller.organizationId(), updated.projectId(), keyId, updated.name(), changes, narrowed));
        }
        if (switched) {
            events.publishEvent(
                    shape.enabled()
                            ? new ApiKeyEvent.Enabled(
                                    caller.organizationId(), updated.projectId(), keyId, updated.name())
                            : new ApiKeyEvent.Disabled(
                                    caller.organizationId(), updated.projectId(), keyId, updated.name()));
        }
        return updated;
    }

    /** Records a field's change as its audit line shows it ({@code {from, to}}, either may be null). */
    private static void change(
            Map<String, Map<String, Object>> changes, String field, @Nullable Object from, @Nullable Object to) {
        if (!Objects.equals(from, to)) {
            Map<String, Object> change = new LinkedHashMap<>();
            change.put("from", from);
            change.put("to", to);
            changes.put(field, change);
        }
    }

    /** The expiry a key gets under the policy: the requested one if allowed, else the default shortened to fit. */
    private static Instant expiryWithin(KeyPolicy policy, Instant now, @Nullable Instant requested) {
        if (requested == null) {
            return policy.defaultExpiry(now, NewApiKey.defaultExpiry(now));
        }
        policy.refusesExpiry(now, requested).ifPresent(rule -> {
            throw new KeyPolicyViolation(rule);
        });
        return requested;
    }

    private static void requireAllowedIps(KeyPolicy policy, KeyShape shape) {
        policy.refusesAnyAddress(shape.allowedIps() != null).ifPresent(rule -> {
            throw new KeyPolicyViolation(rule);
        });
    }

    /** Sets the rate limits and credits an update sends; records them in {@code changes}; whether any changed. */
    private boolean changeLimits(UUID keyId, KeyUpdate request, ApiKey old, Map<String, Map<String, Object>> changes) {
        boolean changed = false;
        List<RateLimit> ratelimits = request.ratelimits();
        if (ratelimits != null && !ratelimits.equals(old.ratelimits())) {
            limits.setRatelimits(keyId, ratelimits);
            change(changes, "ratelimits", old.ratelimits(), ratelimits);
            changed = true;
        }
        if (request.credits() != null) {
            boolean unlimited = CreditsPatch.isUnlimited(request.credits());
            limits.setCredits(keyId, unlimited ? null : request.credits(), clock.instant());
            // a top-up is a change even when it sets the same numbers again
            Map<String, Object> change = new LinkedHashMap<>();
            change.put("from", old.credits());
            change.put("to", unlimited ? null : request.credits());
            changes.put("credits", change);
            changed = true;
        }
        return changed;
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
        KeyRoll.Valid valid = request.resolve();
        Instant expiresAt = expiryWithin(policies.of(caller.organizationId()), now, valid.expiresAt());
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
        keys.update(old.id(), old.name(), old.permissions(), previousExpiresAt, old.shape());
        if (revokeNow) {
            keys.revoke(old.id());
        }
        narrowing.narrowed(old.id());
        Created inserted = insertKey(caller, old.name(), old.permissions(), expiresAt, old.shape());
        limits.copyForRoll(old.id(), inserted.key().id());
        Created created =
                new Created(inserted.rawKey(), keys.find(inserted.key().id()).orElseThrow());
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
            throw ApiKeyProblem.adminNotYours();
        }
    }

    /** Stores a new key in the caller's active project; its raw value exists only in the answer. */
    private Created insertKey(Caller caller, String name, List<String> permissions, Instant expiresAt, KeyShape shape) {
        RawKey raw = ApiKeyFormat.generate();
        ApiKey key = keys.insert(
                UUID.randomUUID(),
                caller.projectId(),
                caller.organizationId(),
                caller.customerId(),
                name,
                raw.digest(),
                permissions,
                expiresAt,
                shape);
        return new Created(raw.value(), key);
    }

    /** The active project's unrevoked keys, newest first; with an external id, only the keys that carry it. */
    public List<ApiKey> list(Caller caller, @Nullable String externalId) {
        return externalId == null
                ? keys.listLive(caller.projectId())
                : keys.listLiveWithExternalId(caller.projectId(), externalId);
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

    /**
     * The organization is deleted: each of its live keys is revoked as {@link #revoke} revokes one, in the deletion's
     * transaction (the event is published inside it); once that commits, the deletion answers only after every
     * instance dropped them, as a single revocation does.
     */
    @EventListener
    void organizationDeleted(AccountEvent.OrganizationDeleted deleted) {
        UUID organizationId = deleted.organizationId();
        List<ApiKey> live = keys.lockLiveInOrganization(organizationId);
        for (ApiKey key : live) {
            keys.revoke(key.id());
            narrowing.narrowed(key.id());
            events.publishEvent(new ApiKeyEvent.Revoked(organizationId, key.projectId(), key.id(), key.name()));
        }
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
     * @param request the optional body: the address of the storage backend's client ({@code client_ip}), the cost
     * @throws com.kvportal.common.web.ProblemException 401 {@code invalid_api_key}, {@code api_key_revoked},
     *     {@code api_key_expired} or {@code api_key_disabled}; 403 {@code ip_not_allowed}
     * @throws TooManyRequests when a key that memory cannot answer comes from a client that spent its budget
     * @throws LimitRefused 429 {@code rate_limited} or {@code credits_exhausted}: a refused verify takes nothing
     */
    public VerifiedKey verify(@Nullable String presented, String client, VerifyRequest request) {
        long started = System.nanoTime();
        StoredKey key;
        LimitState limitState;
        try {
            key = usable(presented, client, request.clientIp(), true);
        } catch (KeyRefused refused) {
            metrics.verified(refused.code(), started);
            throw refused;
        }
        try {
            // rate limits, then credits: from this instance's memory, a database round trip only per chunk
            limitState = limiter.admit(key.id(), key.limits(), request.costOrDefault());
        } catch (LimitRefused refused) {
            verifications.count(key.id(), refused.outcome());
            metrics.verified(refused.code(), started);
            throw refused;
        }
        // the plan fields come from memory too: no round trip (usage's StorageStanding, at most 5 s old)
        VerifiedKey verified =
                VerifiedKey.of(key, storage.standingOf(key.organizationId()), limitState, clock.instant());
        verifications.count(key.id(), Outcome.VALID);
        metrics.verified("ok", started);
        return verified;
    }

    /**
     * The caller that a usable key stands for, or empty for a key that is malformed, unknown, revoked or expired.
     *
     * @throws KeyRefused 401 {@code api_key_disabled} for a key switched off, 403 {@code ip_not_allowed} for a key
     *     used from outside its allowed addresses
     */
    @Override
    public Optional<Caller> authenticate(String presented, String client, String address) {
        StoredKey key;
        try {
            key = usable(presented, client, address, false);
        } catch (KeyRefused refused) {
            if (refused.status() == HttpStatus.UNAUTHORIZED && !refused.code().equals("api_key_disabled")) {
                return Optional.empty();
            }
            throw refused;
        }
        return Optional.of(new Caller(
                key.customerId(), key.organizationId(), key.projectId(), key.id(), Set.copyOf(key.permissions())));
    }

    /**
     * The one decision of verify and of a key used as credential, in this order: the key itself (unknown, revoked,
     * expired), switched off, the client's address; records the use of a usable key.
     *
     * @param clientIp the address the key is used from (verify: the body's {@code client_ip}, maybe absent)
     * @param verify whether this is a verify, whose refusal of a known key is counted under its {@link Outcome}
     */
    private StoredKey usable(@Nullable String presented, String client, @Nullable String clientIp, boolean verify) {
        StoredKey key = lookUp(presented, client).orElseThrow(KeyRefused::invalid);
        Instant now = clock.instant();
        if (key.isRevoked()) {
            throw refused(key, Outcome.REVOKED, verify, KeyRefused.revoked());
        }
        if (key.isExpiredAt(now)) {
            throw refused(key, Outcome.EXPIRED, verify, KeyRefused.expired());
        }
        if (!key.shape().enabled()) {
            throw refused(key, Outcome.DISABLED, verify, KeyRefused.disabled());
        }
        if (!key.shape().allows(clientIp)) {
            throw refused(key, Outcome.IP_NOT_ALLOWED, verify, KeyRefused.ipNotAllowed());
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
