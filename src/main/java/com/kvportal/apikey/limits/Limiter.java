package com.kvportal.apikey.limits;

import com.kvportal.apikey.limits.LimitState.CreditState;
import com.kvportal.apikey.limits.LimitState.RateLimitState;
import com.kvportal.common.database.DatabaseFailures;
import com.kvportal.common.scheduling.PeriodicJob;
import jakarta.annotation.PreDestroy;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Decides a verify's rate limits and credits from this instance's memory, going to PostgreSQL only for a new chunk:
 * of a window's budget ({@link RateLeases}) or of the key's credits ({@link CreditLedger}). Everything is checked
 * before anything is taken, under the key's lock on this instance, so a refused verify consumes nothing. Credits
 * set aside and unused go back to the key {@code giveBackAfter} after the last verify of the key here.
 */
@Component
@RequiredArgsConstructor
public class Limiter implements PeriodicJob {

    private static final Logger log = LoggerFactory.getLogger(Limiter.class);
    private static final long IDLE_STATE_MILLIS = 120_000;

    private final ConcurrentHashMap<UUID, KeyState> states = new ConcurrentHashMap<>();
    private final RateLeases leases;
    private final CreditLedger ledger;
    private final LimitsProperties properties;
    private final Clock clock;

    /**
     * Admits a verify of {@code cost} under the key's limits, taking the cost from each, or refuses it taking nothing.
     *
     * @throws LimitRefused 429 {@code rate_limited} or {@code credits_exhausted}
     */
    public LimitState admit(UUID keyId, KeyLimits limits, int cost) {
        if (limits.isNone()) {
            return LimitState.NONE;
        }
        KeyState state = states.computeIfAbsent(keyId, id -> new KeyState());
        synchronized (state) {
            long now = clock.millis();
            state.noteDemand(now);
            return admit(keyId, limits, cost, state, now);
        }
    }

    private LimitState admit(UUID keyId, KeyLimits limits, int cost, KeyState state, long now) {
        List<Window> windows = new ArrayList<>(limits.ratelimits().size());
        Window refusedBy = null;
        for (RateLimit limit : limits.ratelimits()) {
            Window window = state.window(limit, now);
            if (cost > window.available && !window.exhausted) {
                lease(keyId, window, cost - window.available, state.ratePerSecond());
            }
            if (cost > window.available && (refusedBy == null || window.end > refusedBy.end)) {
                refusedBy = window;
            }
            windows.add(window);
        }
        Purse purse = limits.hasCredits() ? state.purse(limits.creditsGeneration()) : null;
        if (refusedBy != null) {
            throw LimitRefused.rateLimited(refusedBy.limit, refusedBy.end - now, state(windows, purse));
        }
        if (purse != null) {
            if (cost > purse.available && !purse.unlimited) {
                reserve(keyId, purse, cost - purse.available, state.ratePerSecond());
            }
            if (!purse.unlimited && cost > purse.available) {
                throw LimitRefused.creditsExhausted(
                        purse.remaining(), cost, Instant.ofEpochMilli(now), state(windows, purse));
            }
            purse.available -= purse.unlimited ? 0 : cost;
            purse.lastUse = now;
        }
        for (Window window : windows) {
            window.available -= cost;
        }
        return state(windows, purse);
    }

    private void lease(UUID keyId, Window window, long need, long ratePerSecond) {
        long limit = window.limit.limitValue();
        long share = Math.max(1, (long) Math.ceil(limit * properties.windowShare()));
        long chunk = Math.max(need, Math.min(share, Math.max(properties.minChunk(), byTraffic(ratePerSecond))));
        RateLeases.Lease lease = leases.lease(keyId, window.limit, window.start, Math.min(chunk, limit));
        window.available += lease.taken();
        window.granted = lease.granted();
        // once the window is spent at the database, refuse here until it ends: no more transactions
        window.exhausted = lease.granted() >= limit;
    }

    private void reserve(UUID keyId, Purse purse, long need, long ratePerSecond) {
        long chunk = Math.max(need, Math.max(properties.minChunk(), byTraffic(ratePerSecond)));
        Optional<CreditLedger.Reservation> reserved = ledger.reserve(keyId, chunk, clock.instant());
        if (reserved.isEmpty()) {
            purse.unlimited = true; // the credits were removed since the key was loaded
            return;
        }
        CreditLedger.Reservation reservation = reserved.get();
        if (reservation.generation() != purse.generation) {
            purse.available = 0; // a refill replaced the budget: what was set aside of the old one is void
            purse.generation = reservation.generation();
        }
        purse.available += reservation.taken();
        purse.remainingAtKey = reservation.remainingAtKey();
        purse.nextRefillAt = reservation.nextRefillAt();
    }

    private long byTraffic(long ratePerSecond) {
        return (long) Math.ceil(ratePerSecond * properties.chunkTraffic().toMillis() / 1000.0);
    }

    private static LimitState state(List<Window> windows, @Nullable Purse purse) {
        List<RateLimitState> ratelimits = new ArrayList<>(windows.size());
        for (Window window : windows) {
            long limit = window.limit.limitValue();
            long remaining = Math.min(limit, Math.max(0, limit - window.granted) + Math.max(0, window.available));
            ratelimits.add(
                    new RateLimitState(window.limit.nameValue(), limit, remaining, Instant.ofEpochMilli(window.end)));
        }
        CreditState credits =
                purse == null || purse.unlimited ? null : new CreditState(purse.remaining(), purse.nextRefillAt);
        return new LimitState(List.copyOf(ratelimits), credits);
    }

    @Override
    public Schedule schedule() {
        return Schedule.every("credit-give-back", properties.sweep(), this::sweep);
    }

    /** Gives back the credits of keys not verified here for {@code giveBackAfter}; forgets idle keys. */
    void sweep() {
        long now = clock.millis();
        long idle = properties.giveBackAfter().toMillis();
        giveBackUnused(purse -> now - purse.lastUse >= idle, state -> now - state.lastDemand > IDLE_STATE_MILLIS);
    }

    /** A graceful stop gives every unused credit back at once. */
    @PreDestroy
    void giveBackAll() {
        giveBackUnused(purse -> true, state -> false);
    }

    /**
     * Gives back what each purse that is {@code due} holds unused; forgets a key whose purse holds nothing and whose
     * state is {@code forgettable}.
     */
    private void giveBackUnused(Predicate<Purse> due, Predicate<KeyState> forgettable) {
        for (Map.Entry<UUID, KeyState> entry : states.entrySet()) {
            KeyState state = entry.getValue();
            Purse purse;
            long unused;
            synchronized (state) {
                purse = state.purse;
                if (purse == null || purse.available <= 0 || !due.test(purse)) {
                    if (forgettable.test(state) && (purse == null || purse.available <= 0)) {
                        states.remove(entry.getKey(), state);
                    }
                    continue;
                }
                unused = purse.available;
                purse.available = 0;
                purse.remainingAtKey += unused;
            }
            giveBack(entry.getKey(), state, purse, unused);
        }
    }

    private void giveBack(UUID keyId, KeyState state, Purse purse, long unused) {
        try {
            ledger.giveBack(keyId, purse.generation, unused);
        } catch (RuntimeException e) {
            if (DatabaseFailures.isUnavailable(e)) {
                log.warn(
                        "Could not give back {} credits of key {}, the database is unavailable; retrying",
                        unused,
                        keyId);
            } else {
                log.warn("Could not give back {} credits of key {}; retrying", unused, keyId, e);
            }
            synchronized (state) {
                if (state.purse == purse) {
                    purse.available += unused;
                    purse.remainingAtKey -= unused;
                }
            }
        }
    }

    /** One key's limits on this instance; guarded by its own monitor. */
    private static final class KeyState {
        private final Map<String, Window> windows = new HashMap<>();
        private @Nullable Purse purse;
        private long second;
        private long thisSecond;
        private long lastSecond;
        private long lastDemand;

        void noteDemand(long now) {
            long s = now / 1000;
            if (s != second) {
                lastSecond = s == second + 1 ? thisSecond : 0;
                thisSecond = 0;
                second = s;
            }
            thisSecond++;
            lastDemand = now;
        }

        long ratePerSecond() {
            return Math.max(thisSecond, lastSecond);
        }

        Window window(RateLimit limit, long now) {
            long start = limit.windowStart(now);
            Window window = windows.get(limit.nameValue());
            if (window == null || window.start != start || !window.limit.equals(limit)) {
                window = new Window(limit, start);
                windows.put(limit.nameValue(), window);
            }
            return window;
        }

        /** The purse of the key's current credits: one of an older generation (a top-up since) is dropped. */
        Purse purse(long generation) {
            if (purse == null || purse.generation < generation) {
                purse = new Purse(generation);
            }
            return purse;
        }
    }

    /** This instance's share of a window's budget. */
    private static final class Window {
        final RateLimit limit;
        final long start;
        final long end;
        long available;
        long granted;
        boolean exhausted;

        Window(RateLimit limit, long start) {
            this.limit = limit;
            this.start = start;
            this.end = start + limit.duration();
        }
    }

    /** Credits this instance set aside for a key. */
    private static final class Purse {
        long generation;
        long available;
        long remainingAtKey;

        @Nullable
        Instant nextRefillAt;

        long lastUse;
        boolean unlimited;

        Purse(long generation) {
            this.generation = generation;
        }

        long remaining() {
            return remainingAtKey + available;
        }
    }
}
